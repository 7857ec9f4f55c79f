import { AssetKind, type Asset, type WalletTransaction } from '@wallet-api/core/proto/events';
import type { TransactionRecord } from '@wallet-api/core/proto/indexer';
import type { DappTable, TokenTable } from '@wallet-api/core/reference-data';
import { toTransactionRecord, transactionContracts, transactionTokens } from '@wallet-api/core/transactions';
import { methodOf } from '../decode/method-names.js';

/** A swap quote's transaction as the wallet would send it, with what it gives and gets at least. */
export interface SwapActionFacts {
  chainId: string;
  /** Lowercase 0x-hex. */
  wallet: string;
  /** The router the transaction calls. */
  router: string;
  data: string;
  value: string;
  /** Token contracts, lowercase; '' for the chain's native asset. */
  inputToken: string;
  outputToken: string;
  /** Base units, decimal. */
  inputAmount: string;
  outputAmountMin: string;
  createdAt: Date;
}

const assetOf = (token: string): Asset =>
  token === '' ? { kind: AssetKind.ASSET_KIND_NATIVE, address: '', tokenId: '' } : { kind: AssetKind.ASSET_KIND_ERC20, address: token, tokenId: '' };

/**
 * The swap decoded the way a mined one would be, before it is mined: one `trade` act at the
 * router, the input going out to the router and at least the minimum output coming back. It has
 * no block, hash, nonce or fee yet.
 */
export function swapActionTransaction(facts: SwapActionFacts): WalletTransaction {
  const method = methodOf(facts.data);
  const wallet = facts.wallet;
  return {
    chainId: facts.chainId,
    blockNumber: '0',
    blockHash: '',
    blockTimestamp: String(Math.floor(facts.createdAt.getTime() / 1000)),
    transactionIndex: 0,
    hash: '',
    from: wallet,
    to: facts.router,
    nonce: '0',
    failed: false,
    fee: '0',
    value: facts.value,
    methodId: method.id,
    methodName: method.name,
    createdContract: '',
    paymaster: '',
    acts: [{ id: 1, type: 'trade', sentFrom: wallet, contractAddress: facts.router }],
    transfers: [
      { actId: 1, asset: assetOf(facts.inputToken), amount: facts.inputAmount, sender: wallet, recipient: facts.router },
      { actId: 1, asset: assetOf(facts.outputToken), amount: facts.outputAmountMin, sender: facts.router, recipient: wallet },
    ],
    approvals: [],
    collectionApprovals: [],
    wallets: [wallet, facts.router].sort(),
  };
}

/** What the reference-data lookups of a swap action's record need: its tokens and its router. */
export function swapActionLookups(tx: WalletTransaction): {
  tokens: { chainId: string; address: string }[];
  contracts: { chainId: string; address: string }[];
} {
  return { tokens: transactionTokens(tx), contracts: transactionContracts(tx) };
}

/**
 * The record listed in meta.unsigned: the wallet's view of the swap with token and dapp reference
 * data, read as a `trade` whatever the transfers alone would suggest (the quote is a swap).
 */
export function swapActionRecord(tx: WalletTransaction, tables: { tokens: TokenTable; dapps: DappTable }): TransactionRecord {
  return toTransactionRecord(tx, tx.from, tables, { reading: { operationType: 'trade', isTrash: false } });
}
