import { randomBytes } from 'node:crypto';
import { topics } from '@wallet-api/core/kafka';
import { uniqueName } from '@wallet-api/core/testing';
import type { WriterTopics } from '../src/consume/transaction-writer.js';
import { AssetKind, type Asset, type ChainBlock, type Transfer, type WalletTransaction } from '@wallet-api/core/proto/events';
import { TokenInterface, type TokenInfo } from '@wallet-api/core/proto/reference_data';

export const randomAddress = () => `0x${randomBytes(20).toString('hex')}`;
export const randomHash = () => `0x${randomBytes(32).toString('hex')}`;

export const native: Asset = { kind: AssetKind.ASSET_KIND_NATIVE, address: '', tokenId: '' };
export const erc20 = (address: string): Asset => ({ kind: AssetKind.ASSET_KIND_ERC20, address, tokenId: '' });
export const erc721 = (address: string, tokenId: string): Asset => ({ kind: AssetKind.ASSET_KIND_ERC721, address, tokenId });

export function token(chainId: string, address: string, fields: Partial<TokenInfo>): TokenInfo {
  return {
    chainId,
    address,
    interface: TokenInterface.TOKEN_INTERFACE_ERC20,
    name: '',
    symbol: '',
    decimals: 18,
    fungibleId: '',
    iconUrl: '',
    verified: false,
    isSpam: false,
    ...fields,
  };
}

export interface BlockRef {
  chainId: string;
  number: number;
  hash: string;
  timestamp: number;
}

export function blockRef(chainId: string, number: number, timestamp: number): BlockRef {
  return { chainId, number, hash: randomHash(), timestamp };
}

export function chainBlock(block: BlockRef, sequence: number): ChainBlock {
  return {
    chainId: block.chainId,
    number: String(block.number),
    hash: block.hash,
    parentHash: randomHash(),
    timestamp: String(block.timestamp),
    sequence: String(sequence),
    transactionCount: 0,
  };
}

/** A transaction with one act; `transfers` of that act, every party listed in `wallets`. */
export function transaction(
  block: BlockRef,
  index: number,
  fields: { from: string; to: string; actType?: string; contract?: string; transfers?: Omit<Transfer, 'actId'>[]; methodId?: string } & Omit<
    Partial<WalletTransaction>,
    'transfers'
  >,
): WalletTransaction {
  const { actType = 'transfer', contract = '', transfers = [], ...rest } = fields;
  const parties = new Set<string>([fields.from, ...transfers.flatMap((transfer) => [transfer.sender, transfer.recipient])]);
  if (fields.to) parties.add(fields.to);
  for (const approval of rest.approvals ?? []) [approval.owner, approval.spender].forEach((party) => parties.add(party));
  return {
    chainId: block.chainId,
    blockNumber: String(block.number),
    blockHash: block.hash,
    blockTimestamp: String(block.timestamp),
    transactionIndex: index,
    hash: randomHash(),
    nonce: String(index),
    failed: false,
    fee: '21000000000000',
    value: '0',
    methodId: '',
    methodName: '',
    createdContract: '',
    paymaster: '',
    acts: [{ id: 1, type: actType, sentFrom: fields.from, contractAddress: contract }],
    transfers: transfers.map((transfer) => ({ actId: 1, ...transfer })),
    approvals: [],
    collectionApprovals: [],
    wallets: [...parties].sort(),
    ...rest,
  };
}

/** Reads until `done` holds for the value read, or fails with the last value after `timeoutMs`. */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

/** Topics of a test's own for the transaction writer. */
export function uniqueWriterTopics(): WriterTopics {
  return {
    walletTransactions: { ...topics.walletTransactions, name: uniqueName('test.transactions') },
    balanceChanges: { ...topics.balanceChanges, name: uniqueName('test.balance-changes') },
    chainBlocks: { ...topics.chainBlocks, name: uniqueName('test.blocks') },
    chainRollbacks: { ...topics.chainRollbacks, name: uniqueName('test.rollbacks') },
  };
}
