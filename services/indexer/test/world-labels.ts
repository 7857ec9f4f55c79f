import type { OperationType } from '@wallet-api/core/transactions';

// How the test world's manifest labels read as operation types, shared by the decoder's world test
// and the API's.

/** What each label of the manifest must read as, for the wallet that carries it, in at least one of its transactions. */
export const expectedByLabel: Record<string, OperationType> = {
  'faucet:receive-eth': 'receive',
  'tokens:eth-transfer': 'send',
  'tokens:erc20-transfer': 'send',
  'tokens:weth-deposit': 'deposit',
  'tokens:weth-withdraw': 'withdraw',
  'tokens:approve': 'approve',
  'tokens:revoke': 'revoke',
  'tokens:deploy-contract': 'deploy',
  'tokens:spam-airdrop': 'receive',
  'uniswap-v2:swap': 'trade',
  'uniswap-v2:swap-eth-for-tokens': 'trade',
  'uniswap-v2:swap-tokens-for-eth': 'trade',
  'uniswap-v2:add-liquidity': 'deposit',
  'uniswap-v2:add-liquidity-eth': 'deposit',
  'uniswap-v2:remove-liquidity': 'withdraw',
  'uniswap-v2:remove-liquidity-eth': 'withdraw',
  'uniswap-v3:swap': 'trade',
  'uniswap-v3:swap-eth-in': 'trade',
  'uniswap-v3:swap-eth-out': 'trade',
  'uniswap-v3:mint': 'deposit',
  'uniswap-v3:mint-eth': 'deposit',
  'uniswap-v3:increase-liquidity': 'deposit',
  'uniswap-v3:decrease-liquidity': 'withdraw',
  'uniswap-v3:decrease-liquidity-and-collect': 'withdraw',
  'uniswap-v3:collect': 'withdraw',
  'uniswap-v3:collect-eth': 'withdraw',
  'uniswap-v3:close-position': 'withdraw',
  'uniswap-v3:burn': 'burn',
  'defi:stake': 'deposit',
  'defi:stake-locked': 'deposit',
  'defi:unstake': 'withdraw',
  'defi:unstake-locked': 'withdraw',
  'defi:claim-rewards': 'claim',
  'defi:vault-deposit': 'deposit',
  'defi:vault-withdraw': 'withdraw',
  'defi:vault-redeem': 'withdraw',
  'defi:supply': 'deposit',
  'defi:withdraw-supply': 'withdraw',
  'defi:withdraw-supply-all': 'withdraw',
  'defi:borrow': 'withdraw',
  'defi:repay': 'deposit',
  'defi:repay-all': 'deposit',
  'nfts:mint-erc721': 'mint',
  'nfts:mint-erc721-paid': 'mint',
  'nfts:mint-erc1155': 'mint',
  'nfts:transfer-erc721': 'send',
  'nfts:transfer-erc1155': 'send',
  'nfts:batch-transfer-erc1155': 'send',
  'nfts:approve-for-all': 'approve',
  'nfts:revoke-approval-for-all': 'revoke',
  'nfts:list': 'bid',
  'nfts:buy': 'trade',
  'nfts:spam-airdrop': 'receive',
};

/** Labels of planned failures: the wallet sent a transaction that reverted. */
export const failureLabels = new Set([
  'tokens:failed-transfer',
  'defi:borrow-over-limit',
  'defi:unstake-early',
  'smart-wallets:safe-execute-unsigned',
  'smart-wallets:account-call-unauthorized',
  'smart-wallets:safe-execute-reverted',
]);

/** Labels of unsolicited junk: the wallet has a transaction its view marks as trash. */
export const trashLabels = new Set(['tokens:spam-airdrop', 'nfts:spam-airdrop']);

/**
 * Labels with no single reading: what a smart-wallet operation or a Safe execution does varies,
 * and price updates and yield donations are administrative calls of the devnet's own modules.
 */
export const unreadLabels = new Set([
  'defi:price-update',
  'defi:vault-yield',
  'smart-wallets:account-op',
  'smart-wallets:account-op-failed',
  'smart-wallets:fund-eth',
  'smart-wallets:fund-token',
  'smart-wallets:safe-approve',
  'smart-wallets:safe-create',
  'smart-wallets:safe-execute',
  'smart-wallets:safe-execute-failed-call',
]);
