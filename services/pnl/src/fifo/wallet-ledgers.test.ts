import { AssetKind, WalletTransaction, type Transfer } from '@wallet-api/core/proto/events';
import type { FungibleRef } from './transaction-entries.js';
import { walletLedgers, type FungibleOf } from './wallet-ledgers.js';

const wallet = '0x00000000000000000000000000000000000000aa';
const pool = '0x00000000000000000000000000000000000000cc';
const usdc = '0x00000000000000000000000000000000000000d1';
const gov = '0x00000000000000000000000000000000000000d2';
const spam = '0x00000000000000000000000000000000000000d3';
const unit = 10n ** 18n;

const token = (address: string, amount: bigint, sender: string, recipient: string): Transfer => ({ actId: 1, asset: { kind: AssetKind.ASSET_KIND_ERC20, address, tokenId: '' }, amount: amount.toString(), sender, recipient });

/** The wallet swaps `usdcAmount` USDC for `govAmount` GOV (or back when `sell`), fee paid by someone else. */
function swap(chainId: string, time: number, usdcAmount: bigint, govAmount: bigint, sell = false): WalletTransaction {
  const [given, got] = sell ? [token(gov, govAmount, wallet, pool), token(usdc, usdcAmount, pool, wallet)] : [token(usdc, usdcAmount, wallet, pool), token(gov, govAmount, pool, wallet)];
  return WalletTransaction.fromPartial({ chainId, blockTimestamp: String(time), from: pool, fee: '0', paymaster: '', transfers: [given, got] });
}

// USDC and GOV are one fungible each on both chains; the spam token is none.
const fungibleOf: FungibleOf = ({ asset }) => (asset === usdc ? { fungibleId: 'usdc', decimals: 18 } : asset === gov ? { fungibleId: 'gov', decimals: 18 } : undefined);
const valueAt = ({ asset }: FungibleRef, amount: bigint) => (asset === usdc ? Number(amount) / 1e18 : undefined);

const history = [
  swap('ethereum', 100, 100n * unit, unit),
  swap('base', 200, 200n * unit, unit),
  swap('base', 300, 300n * unit, unit, true),
];

test('implementations on every chain share lots: a sale on base consumes the lot bought on ethereum first', () => {
  const { fungibles, unpriced } = walletLedgers({ wallet, transactions: history, fungibleOf, valueAt });
  expect(fungibles.get('gov')!.statistics).toMatchObject({ realizedGain: 200, realizedCostBasis: 100, totalInvested: 300, open: { amount: unit, cost: 200 } });
  expect([...fungibles.get('gov')!.implementations].sort()).toEqual([`base:${gov}`, `ethereum:${gov}`]);
  // GOV has no price of its own: each trade values it at the USDC on the other side.
  expect(unpriced.size).toBe(0);
});

test('since: earlier sales still take their lots but only later flows count; till leaves later transactions out', () => {
  const history2 = [...history, swap('ethereum', 400, 500n * unit, unit, true)];
  const since = walletLedgers({ wallet, transactions: history2, fungibleOf, valueAt, since: 400 }).fungibles.get('gov')!.statistics;
  // The sale at 300 took the 100 lot; the one at 400 takes the 200 lot.
  expect(since).toMatchObject({ realizedGain: 300, realizedCostBasis: 200, totalInvested: 0, open: { amount: 0n, cost: 0 } });
  const till = walletLedgers({ wallet, transactions: history2, fungibleOf, valueAt, till: 200 }).fungibles.get('gov')!.statistics;
  expect(till).toMatchObject({ realizedGain: 0, totalInvested: 300, open: { amount: 2n * unit, cost: 300 } });
});

test('a token that is no fungible is left out', () => {
  const airdrop = WalletTransaction.fromPartial({ chainId: 'ethereum', blockTimestamp: '50', from: pool, fee: '0', paymaster: '', transfers: [token(spam, unit, pool, wallet)] });
  const { fungibles, unpriced } = walletLedgers({ wallet, transactions: [airdrop], fungibleOf, valueAt });
  expect(fungibles.size).toBe(0);
  expect(unpriced.size).toBe(0);
});
