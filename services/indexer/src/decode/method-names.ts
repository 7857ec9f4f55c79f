import { toFunctionSelector } from 'viem';

/**
 * Function signatures the decoder names: the token standards, WETH, Uniswap's routers and
 * position manager, the devnet's protocols, Safe and ERC-4337. Two signatures may share a name
 * (WETH's and staking's `withdraw(uint256)` even share a selector), which is why only names are
 * stored.
 */
const signatures = [
  // ERC-20, ERC-721, ERC-1155
  'transfer(address,uint256)',
  'transferFrom(address,address,uint256)',
  'approve(address,uint256)',
  'increaseAllowance(address,uint256)',
  'decreaseAllowance(address,uint256)',
  'permit(address,address,uint256,uint256,uint8,bytes32,bytes32)',
  'safeTransferFrom(address,address,uint256)',
  'safeTransferFrom(address,address,uint256,bytes)',
  'setApprovalForAll(address,bool)',
  'safeTransferFrom(address,address,uint256,uint256,bytes)',
  'safeBatchTransferFrom(address,address,uint256[],uint256[],bytes)',
  // WETH9
  'deposit()',
  'withdraw(uint256)',
  // Uniswap V2 router
  'addLiquidity(address,address,uint256,uint256,uint256,uint256,address,uint256)',
  'addLiquidityETH(address,uint256,uint256,uint256,address,uint256)',
  'removeLiquidity(address,address,uint256,uint256,uint256,address,uint256)',
  'removeLiquidityETH(address,uint256,uint256,uint256,address,uint256)',
  'removeLiquidityWithPermit(address,address,uint256,uint256,uint256,address,uint256,bool,uint8,bytes32,bytes32)',
  'removeLiquidityETHWithPermit(address,uint256,uint256,uint256,address,uint256,bool,uint8,bytes32,bytes32)',
  'removeLiquidityETHSupportingFeeOnTransferTokens(address,uint256,uint256,uint256,address,uint256)',
  'removeLiquidityETHWithPermitSupportingFeeOnTransferTokens(address,uint256,uint256,uint256,address,uint256,bool,uint8,bytes32,bytes32)',
  'swapExactTokensForTokens(uint256,uint256,address[],address,uint256)',
  'swapTokensForExactTokens(uint256,uint256,address[],address,uint256)',
  'swapExactETHForTokens(uint256,address[],address,uint256)',
  'swapTokensForExactETH(uint256,uint256,address[],address,uint256)',
  'swapExactTokensForETH(uint256,uint256,address[],address,uint256)',
  'swapETHForExactTokens(uint256,address[],address,uint256)',
  'swapExactTokensForTokensSupportingFeeOnTransferTokens(uint256,uint256,address[],address,uint256)',
  'swapExactETHForTokensSupportingFeeOnTransferTokens(uint256,address[],address,uint256)',
  'swapExactTokensForETHSupportingFeeOnTransferTokens(uint256,uint256,address[],address,uint256)',
  // Uniswap V3 swap router and position manager
  'exactInputSingle((address,address,uint24,address,uint256,uint256,uint256,uint160))',
  'exactInput((bytes,address,uint256,uint256,uint256))',
  'exactOutputSingle((address,address,uint24,address,uint256,uint256,uint256,uint160))',
  'exactOutput((bytes,address,uint256,uint256,uint256))',
  'multicall(bytes[])',
  'multicall(uint256,bytes[])',
  'unwrapWETH9(uint256,address)',
  'refundETH()',
  'sweepToken(address,uint256,address)',
  'createAndInitializePoolIfNecessary(address,address,uint24,uint160)',
  'mint((address,address,uint24,int24,int24,uint256,uint256,uint256,uint256,address,uint256))',
  'increaseLiquidity((uint256,uint256,uint256,uint256,uint256,uint256))',
  'decreaseLiquidity((uint256,uint128,uint256,uint256,uint256))',
  'collect((uint256,address,uint128,uint128))',
  'burn(uint256)',
  // ERC-4626
  'deposit(uint256,address)',
  'mint(uint256,address)',
  'withdraw(uint256,address,address)',
  'redeem(uint256,address,address)',
  // Devnet staking, lending, vault yield, NFTs, market, spam
  'stake(uint256)',
  'stakeLocked(uint256,uint256)',
  'withdrawLocked(uint256)',
  'claim()',
  'getReward()',
  'supply(address,uint256)',
  'withdraw(address,uint256)',
  'borrow(address,uint256)',
  'repay(address,uint256)',
  'setPrice(address,uint256)',
  'listMarket(address,uint256,uint256,uint256,uint256,uint256)',
  'notifyRewardAmount(uint256,uint256)',
  'donateYield(uint256,uint256)',
  'mint(uint256)',
  'mint(uint256,uint256)',
  'withdraw()',
  'list(address,uint256,uint256)',
  'buy(uint256)',
  'airdrop(address[])',
  'airdrop(address[],uint256)',
  // Safe
  'execTransaction(address,uint256,bytes,uint8,uint256,uint256,uint256,address,address,bytes)',
  'execTransaction(address,uint256,bytes,uint8,bytes)',
  'approveHash(bytes32)',
  'createProxyWithNonce(address,bytes,uint256)',
  'createProxy(address[],uint256,bool,uint256)',
  'createInstance(address[],uint256,bool,uint256)',
  // ERC-4337 EntryPoint v0.6 (and the devnet's, whose operation has no fee fields) and accounts
  'handleOps((address,uint256,bytes,bytes,uint256,uint256,uint256,uint256,uint256,bytes,bytes)[],address)',
  'handleOps((address,uint256,bytes,bytes,uint256,uint256,bytes)[])',
  'createAccount(address,uint256)',
  'execute(address,uint256,bytes)',
  'executeBatch(address[],uint256[],bytes[])',
] as const;

const names = new Map<string, string>(signatures.map((signature) => [toFunctionSelector(signature), signature.slice(0, signature.indexOf('('))]));

export interface Method {
  /** `0x` + 8 hex digits; empty when the input is shorter than a selector. */
  id: string;
  /** Empty when no known signature has the selector. */
  name: string;
}

export function methodOf(input: string): Method {
  if (input.length < 10) return { id: '', name: '' };
  const id = input.slice(0, 10).toLowerCase();
  return { id, name: names.get(id) ?? '' };
}
