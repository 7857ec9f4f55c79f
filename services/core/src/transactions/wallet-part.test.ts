import fc from 'fast-check';
import { AssetKind, type WalletTransaction } from '../generated/proto/events.js';
import type { DappTable, TokenTable } from '../reference-data/index.js';
import type { TokenFacts } from './token-facts.js';
import { toTransactionRecord } from './transaction-record.js';
import { walletLegs } from './wallet-legs.js';
import { walletPart } from './wallet-part.js';
import { walletView } from './wallet-view.js';

// Five parties and three tokens are enough for every overlap: a wallet on both sides, approvals
// without transfers, acts performed by someone else, a token verified or spam.
const parties = ['0xa1', '0xb2', '0xc3', '0xd4', '0x0000000000000000000000000000000000000000'];
const assets = [
  { kind: AssetKind.ASSET_KIND_NATIVE, address: '', tokenId: '' },
  { kind: AssetKind.ASSET_KIND_ERC20, address: '0xt1', tokenId: '' },
  { kind: AssetKind.ASSET_KIND_ERC20, address: '0xspam', tokenId: '' },
  { kind: AssetKind.ASSET_KIND_ERC721, address: '0xnft', tokenId: '7' },
];
const actTypes = ['transfer', 'trade', 'mint', 'burn', 'approve', 'deposit', 'execute'];

const facts: TokenFacts = {
  lookup: (_chainId, address) =>
    address === '0xt1' ? { verified: true, isSpam: false } : address === '0xspam' ? { verified: false, isSpam: true } : undefined,
};
const tokens: TokenTable = { info: (chainId, address) => ({ chainId, address, symbol: address || 'ETH' }) as never };
const dapps: DappTable = { dapp: () => undefined };

const party = fc.constantFrom(...parties);
const transaction: fc.Arbitrary<WalletTransaction> = fc
  .record({
    from: party,
    acts: fc.array(fc.record({ type: fc.constantFrom(...actTypes), sentFrom: party, contractAddress: fc.constantFrom('', '0xc0') }), {
      minLength: 1,
      maxLength: 4,
    }),
    transfers: fc.array(
      fc.record({ act: fc.nat(3), asset: fc.constantFrom(...assets), amount: fc.constantFrom('0', '1', '500'), sender: party, recipient: party }),
      { maxLength: 10 },
    ),
    approvals: fc.array(fc.record({ act: fc.nat(3), owner: party, spender: party, amount: fc.constantFrom('0', '9') }), { maxLength: 3 }),
    collectionApprovals: fc.array(fc.record({ act: fc.nat(3), owner: party, operator: party, approved: fc.boolean() }), { maxLength: 2 }),
    paymaster: fc.constantFrom('', '0xpay'),
  })
  .map(({ from, acts, transfers, approvals, collectionApprovals, paymaster }) => {
    const actId = (index: number) => index % acts.length;
    const tx: WalletTransaction = {
      chainId: 'ethereum',
      blockNumber: '7',
      blockHash: '0xbb',
      blockTimestamp: '1700000000',
      transactionIndex: 2,
      hash: '0xhh',
      from,
      to: '0xc0',
      nonce: '3',
      failed: false,
      fee: '21000',
      value: '0',
      methodId: '0x12345678',
      methodName: 'run',
      createdContract: '',
      paymaster,
      acts: acts.map((act, id) => ({ id, ...act })),
      transfers: transfers.map(({ act, ...transfer }) => ({ actId: actId(act), ...transfer })),
      approvals: approvals.map(({ act, ...entry }) => ({ actId: actId(act), asset: assets[1], ...entry })),
      collectionApprovals: collectionApprovals.map(({ act, ...entry }) => ({ actId: actId(act), collection: '0xnft', ...entry })),
      wallets: [],
    };
    tx.wallets = [
      ...new Set([from, ...tx.transfers.flatMap((entry) => [entry.sender, entry.recipient]), ...tx.approvals.flatMap((entry) => [entry.owner, entry.spender])]),
    ].sort();
    return tx;
  });

describe('walletPart', () => {
  test('every wallet reads the same from its part as from the whole transaction', () => {
    fc.assert(
      fc.property(transaction, (tx) => {
        for (const wallet of parties) {
          const part = walletPart(tx, wallet);
          expect(walletView(part, wallet, facts)).toEqual(walletView(tx, wallet, facts));
          expect(toTransactionRecord(part, wallet, { tokens, dapps })).toEqual(toTransactionRecord(tx, wallet, { tokens, dapps }));
          expect(walletLegs(part, wallet)).toEqual(walletLegs(tx, wallet));
        }
      }),
      { numRuns: 300 },
    );
  });

  test("keeps only the wallet's own transfers and approvals, every act and field", () => {
    const tx = fc.sample(transaction, { numRuns: 1, seed: 7 })[0]!;
    const whole = { ...tx, transfers: [...tx.transfers, { actId: 0, asset: assets[1], amount: '5', sender: '0xc3', recipient: '0xd4' }] };
    const part = walletPart(whole, '0xa1');
    expect(part.transfers.every((transfer) => transfer.sender === '0xa1' || transfer.recipient === '0xa1')).toBe(true);
    expect(part.transfers.length).toBeLessThan(whole.transfers.length);
    expect(part.acts).toEqual(whole.acts);
    expect({ ...part, transfers: [], approvals: [], collectionApprovals: [], wallets: [] }).toEqual({
      ...whole,
      transfers: [],
      approvals: [],
      collectionApprovals: [],
      wallets: [],
    });
  });
});
