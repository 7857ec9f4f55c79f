import { AssetKind } from '@wallet-api/core/proto/events';
import { TransactionRecord } from '@wallet-api/core/proto/indexer';
import { toTransactionRecord } from '@wallet-api/core/transactions';
import { blockRef, erc20, erc721, native, transaction } from '../../test/wallet-history-fixtures.js';
import { walletRows } from '../consume/wallet-rows.js';
import type { WalletTransactionFilter } from '../store/wallet-transaction-query.js';
import { filterSnapshots, snapshotRow } from './snapshot-filter.js';

const wallet = '0x00000000000000000000000000000000000000aa';
const friend = '0x00000000000000000000000000000000000000bb';
const router = '0x00000000000000000000000000000000000000cc';
const usdc = '0x00000000000000000000000000000000000000dd';
const apes = '0x00000000000000000000000000000000000000ee';
const seenAt = 1_700_000_084;

const facts = { lookup: (_chainId: string, address: string) => (address === usdc || address === '' ? { verified: true, isSpam: false } : undefined) };
const tables = { tokens: { info: () => undefined }, dapps: { dapp: () => undefined } };

/** A pending record as the pending source makes it: block 0, mined at the first-seen second, an action id. */
function pendingRecord(tx: ReturnType<typeof transaction>, address = wallet, seenMs = seenAt * 1000): TransactionRecord {
  const record = toTransactionRecord(tx, address, tables, { reading: walletRows(tx, facts).find((row) => row.address === address)! });
  return { ...record, cursor: { ...record.cursor!, minedAtMs: String(seenMs) }, actionId: `${tx.chainId}:${tx.hash}` };
}

const pending = (chainId = 'ethereum', seconds = seenAt) => blockRef(chainId, 0, seconds);
const swap = transaction(pending(), 0, {
  from: wallet,
  to: router,
  actType: 'trade',
  contract: router,
  transfers: [
    { asset: native, amount: '1000', sender: wallet, recipient: router },
    { asset: erc20(usdc), amount: '2500000', sender: router, recipient: wallet },
  ],
});
const nft = transaction(pending('base'), 0, {
  from: friend,
  to: apes,
  transfers: [{ asset: erc721(apes, '7'), amount: '1', sender: friend, recipient: wallet }],
});
const approval = transaction(pending(), 0, {
  from: wallet,
  to: usdc,
  actType: 'approve',
  contract: usdc,
  approvals: [{ actId: 1, asset: erc20(usdc), owner: wallet, spender: router, amount: '5' }],
});

const base: Omit<WalletTransactionFilter, 'after' | 'limit'> = {
  address: wallet,
  chainIds: ['ethereum', 'base'],
  operationTypes: [],
  trash: 'no_filter',
  assetTypes: [],
};

describe('the list filters applied to pending and unsigned snapshots', () => {
  test.each([swap, nft, approval])('a record reads as the row the writer stores for the mined transaction (%#)', (tx) => {
    const row = walletRows(tx, facts).find((candidate) => candidate.address === wallet)!;
    const derived = snapshotRow(pendingRecord(tx));
    expect({
      assetTypes: derived.asset_types,
      tokenAddresses: derived.token_addresses,
      counterparties: derived.counterparties,
      operationType: derived.operation_type,
    }).toEqual({ assetTypes: row.assetTypes, tokenAddresses: row.tokenAddresses, counterparties: row.counterparties, operationType: row.operationType });
  });

  // Each case: a filter, and which of the three snapshots it keeps.
  test.each<[string, Partial<WalletTransactionFilter>, ReturnType<typeof transaction>[]]>([
    ['no filter', {}, [swap, nft, approval]],
    ['chains', { chainIds: ['base'] }, [nft]],
    ['operation types', { operationTypes: ['trade', 'approve'] }, [swap, approval]],
    ['an operation type none is', { operationTypes: ['mint'] }, []],
    ['only non-trash (an unvouched NFT from someone else is not trash)', { trash: 'only_non_trash' }, [swap, nft, approval]],
    ['only trash', { trash: 'only_trash' }, []],
    ['asset types', { assetTypes: ['nft'] }, [nft]],
    ['a min time at the first-seen second', { minMinedAtMs: BigInt(seenAt) * 1000n }, [swap, nft, approval]],
    ['a min time after it', { minMinedAtMs: BigInt(seenAt + 1) * 1000n }, []],
    ['a max time before it', { maxMinedAtMs: BigInt(seenAt) * 1000n - 1n }, []],
    ['a hash', { search: { kind: 'hash', hash: nft.hash } }, [nft]],
    ['a counterparty', { search: { kind: 'address', address: router } }, [swap, approval]],
    ['a token contract', { search: { kind: 'address', address: apes } }, [nft]],
    ['a symbol found as tokens per chain', { search: { kind: 'tokens', tokens: [{ chainId: 'ethereum', address: usdc }] } }, [swap, approval]],
    ['the native asset of one chain', { search: { kind: 'tokens', tokens: [{ chainId: 'ethereum', address: '' }] } }, [swap]],
    ['another wallet', { address: friend }, []],
  ])('%s', (_name, change, kept) => {
    const records = [swap, nft, approval].map((tx) => pendingRecord(tx));
    expect(
      filterSnapshots(records, { ...base, ...change })
        .map((record) => record.hash)
        .sort(),
    ).toEqual(kept.map((tx) => tx.hash).sort());
  });

  test('newest first by first-seen millisecond, the cursor and page size not applying', () => {
    const records = [
      pendingRecord(swap, wallet, seenAt * 1000 + 1),
      pendingRecord(nft, wallet, seenAt * 1000 + 900),
      pendingRecord(approval, wallet, (seenAt - 5) * 1000),
    ];
    expect(filterSnapshots(records, base).map((record) => record.hash)).toEqual([nft.hash, swap.hash, approval.hash]);
  });

  test('a collection approval the wallet owns counts its collection and operator', () => {
    const record = TransactionRecord.fromPartial({
      chainId: 'ethereum',
      address: wallet,
      minedAt: String(seenAt),
      operationType: 'approve',
      collectionApprovals: [
        { actId: 1, collection: { asset: { kind: AssetKind.ASSET_KIND_UNSPECIFIED, address: apes, tokenId: '' } }, operator: router, approved: true },
      ],
    });
    expect(snapshotRow(record)).toMatchObject({ token_addresses: [apes], counterparties: [router] });
  });
});
