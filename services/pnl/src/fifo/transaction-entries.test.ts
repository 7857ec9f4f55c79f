import { AssetKind, WalletTransaction, type Transfer } from '@wallet-api/core/proto/events';
import { walletLegs } from '@wallet-api/core/transactions';
import { transactionEntries, type FungibleRef } from './transaction-entries.js';

const wallet = '0x00000000000000000000000000000000000000aa';
const other = '0x00000000000000000000000000000000000000bb';
const pool = '0x00000000000000000000000000000000000000cc';
const usdc = '0x00000000000000000000000000000000000000d1';
const gov = '0x00000000000000000000000000000000000000d2';
const nft = '0x00000000000000000000000000000000000000e1';
const ether = 10n ** 18n;

/** Prices per whole unit (18 decimals for every token here); GOV has none when `unpricedGov`. */
function valueAt(unpricedGov = false) {
  const prices: Record<string, number | undefined> = { '': 2_000, [usdc]: 1, [gov]: unpricedGov ? undefined : 4 };
  return ({ asset }: FungibleRef, amount: bigint) => {
    const price = prices[asset];
    return price === undefined ? undefined : (Number(amount) / 1e18) * price;
  };
}

const native = (amount: bigint, sender: string, recipient: string): Transfer => ({
  actId: 1,
  asset: { kind: AssetKind.ASSET_KIND_NATIVE, address: '', tokenId: '' },
  amount: amount.toString(),
  sender,
  recipient,
});
const token = (address: string, amount: bigint, sender: string, recipient: string): Transfer => ({
  actId: 1,
  asset: { kind: AssetKind.ASSET_KIND_ERC20, address, tokenId: '' },
  amount: amount.toString(),
  sender,
  recipient,
});
const nftTransfer = (sender: string, recipient: string): Transfer => ({
  actId: 1,
  asset: { kind: AssetKind.ASSET_KIND_ERC721, address: nft, tokenId: '7' },
  amount: '1',
  sender,
  recipient,
});

function transaction(transfers: Transfer[], fields: Partial<WalletTransaction> = {}): WalletTransaction {
  return WalletTransaction.fromPartial({ chainId: 'ethereum', from: wallet, fee: (ether / 1_000n).toString(), paymaster: '', transfers, ...fields });
}

const fee = { fungible: { chainId: 'ethereum', asset: '' }, entry: { type: 'fee', amount: ether / 1_000n, value: 2 } };
const on = (asset: string) => ({ chainId: 'ethereum', asset });

test.each([
  [
    'a swap: the given token sold at market value, the got one costing that plus the fee',
    transaction([token(usdc, 1_000n * ether, wallet, pool), token(gov, 240n * ether, pool, wallet)]),
    [
      fee,
      { fungible: on(usdc), entry: { type: 'sell', amount: 1_000n * ether, proceeds: 1_000 } },
      { fungible: on(gov), entry: { type: 'buy', amount: 240n * ether, cost: 1_002 } },
    ],
  ],
  ['a transfer between the wallet and itself moves nothing; the fee is still paid', transaction([token(usdc, 5n * ether, wallet, wallet)]), [fee]],
  [
    'a fee-on-transfer token counts what arrived',
    transaction([token(gov, 100n * ether, other, wallet)], { from: other }),
    [{ fungible: on(gov), entry: { type: 'receive', amount: 100n * ether, value: 400 } }],
  ],
  [
    'a send by the wallet: the token leaves at market value, the fee is paid',
    transaction([native(ether / 2n, wallet, other)]),
    [fee, { fungible: on(''), entry: { type: 'send', amount: ether / 2n, value: 1_000 } }],
  ],
  [
    'ether paid for an NFT is a purchase of NFTs',
    transaction([native(ether, wallet, other), nftTransfer(other, wallet)]),
    [fee, { fungible: on(''), entry: { type: 'pay-for-nft', amount: ether, value: 2_000 } }],
  ],
  [
    'tokens got for an NFT are a sale of NFTs',
    transaction([nftTransfer(wallet, other), token(usdc, 300n * ether, other, wallet)], { from: other }),
    [{ fungible: on(usdc), entry: { type: 'receive-for-nft', amount: 300n * ether, value: 300 } }],
  ],
  ['a failed transaction moved nothing but its fee', transaction([token(usdc, 1_000n * ether, wallet, pool)], { failed: true }), [fee]],
  [
    'a fee a paymaster paid is not the wallet’s',
    transaction([token(usdc, 1n * ether, other, wallet)], { paymaster: pool }),
    [{ fungible: on(usdc), entry: { type: 'receive', amount: ether, value: 1 } }],
  ],
  [
    'a swap with change: only the net of each asset counts',
    transaction([native(ether, wallet, pool), native(ether / 4n, pool, wallet), token(usdc, 1_500n * ether, pool, wallet)]),
    [
      fee,
      { fungible: on(''), entry: { type: 'sell', amount: (ether * 3n) / 4n, proceeds: 1_500 } },
      { fungible: on(usdc), entry: { type: 'buy', amount: 1_500n * ether, cost: 1_502 } },
    ],
  ],
] as const)('%s', (_name, given, expected) => {
  expect(transactionEntries(walletLegs(given, wallet), valueAt())).toEqual({ entries: expected, unpriced: [] });
});

test('what a swap got shares the value given by market value', () => {
  const swap = transaction([token(usdc, 1_000n * ether, wallet, pool), token(gov, 100n * ether, pool, wallet), native(ether / 10n, pool, wallet)], {
    fee: '0',
  });
  const { entries } = transactionEntries(walletLegs(swap, wallet), valueAt());
  // GOV worth 400 and ether worth 200 at market share the 1,000 given two to one.
  expect(entries.filter((entry) => entry.entry.type === 'buy').map((entry) => [entry.fungible.asset, (entry.entry as { cost: number }).cost])).toEqual([
    [gov, (1_000 * 400) / 600],
    ['', (1_000 * 200) / 600],
  ]);
});

test('a token without a price is valued by the trade: worth what the other side is worth', () => {
  const sell = transaction([token(gov, 100n * ether, wallet, pool), token(usdc, 500n * ether, pool, wallet)]);
  expect(transactionEntries(walletLegs(sell, wallet), valueAt(true))).toEqual({
    entries: [
      fee,
      { fungible: on(gov), entry: { type: 'sell', amount: 100n * ether, proceeds: 500 } },
      { fungible: on(usdc), entry: { type: 'buy', amount: 500n * ether, cost: 502 } },
    ],
    unpriced: [],
  });
  const buy = transaction([token(usdc, 500n * ether, wallet, pool), token(gov, 100n * ether, pool, wallet)]);
  expect(transactionEntries(walletLegs(buy, wallet), valueAt(true)).entries.at(-1)).toEqual({
    fungible: on(gov),
    entry: { type: 'buy', amount: 100n * ether, cost: 502 },
  });
});

test('a token without a price received or sent outside a trade is reported', () => {
  const airdrop = transaction([token(gov, 100n * ether, other, wallet)], { from: other });
  expect(transactionEntries(walletLegs(airdrop, wallet), valueAt(true))).toEqual({
    entries: [{ fungible: on(gov), entry: { type: 'receive', amount: 100n * ether, value: 0 } }],
    unpriced: [on(gov)],
  });
});

test('a fee without a price counts 0 and leaves the native asset in', () => {
  const noNativePrice = (fungible: FungibleRef, amount: bigint) => (fungible.asset === '' ? undefined : valueAt()(fungible, amount));
  expect(transactionEntries(walletLegs(transaction([], { to: other }), wallet), noNativePrice)).toEqual({
    entries: [{ fungible: on(''), entry: { type: 'fee', amount: ether / 1_000n, value: 0 } }],
    unpriced: [],
  });
});
