import type { WalletLegs } from '@wallet-api/core/proto/events';
import type { LedgerEntry } from './fifo-ledger.js';

/** A fungible implementation: '' is the chain's native asset. */
export interface FungibleRef {
  chainId: string;
  asset: string;
}

/** `<chain_id>:<address>` ('' address for native): an implementation's key in ledgers, filters and breakdowns. */
export const implementationKey = ({ chainId, asset }: FungibleRef) => `${chainId}:${asset}`;

/** The value in the request's currency of an amount (base units) at the transaction's time; undefined without a price then. */
export type ValueAt = (fungible: FungibleRef, amount: bigint) => number | undefined;

export interface TransactionEntries {
  entries: { fungible: FungibleRef; entry: LedgerEntry }[];
  /** Fungibles the transaction moved that had no price then: their entries carry 0 for what they lack. */
  unpriced: FungibleRef[];
}

interface Leg {
  fungible: FungibleRef;
  amount: bigint;
}

/**
 * The market value of each leg of one side of a trade. A leg without a price is worth its share
 * of what the other side is worth beyond this side's priced legs (the trade's own price), when
 * every leg of the other side has a price; undefined otherwise.
 */
function tradeValues(side: readonly Leg[], other: readonly Leg[], valueAt: ValueAt): (number | undefined)[] {
  const values = side.map((leg) => valueAt(leg.fungible, leg.amount));
  const missing = values.filter((value) => value === undefined).length;
  if (missing === 0) return values;
  const otherValues = other.map((leg) => valueAt(leg.fungible, leg.amount));
  if (otherValues.some((value) => value === undefined)) return values;
  const rest = otherValues.reduce<number>((sum, value) => sum + value!, 0) - values.reduce<number>((sum, value) => sum + (value ?? 0), 0);
  return values.map((value) => value ?? Math.max(0, rest) / missing);
}

/**
 * What one transaction did to one wallet's FIFO ledgers, from the wallet's legs of it (its
 * fungibles netted per asset; core walletLegs), read as:
 * - a trade when it gave some fungibles and got others: each given one is sold at market value,
 *   and what it got costs the value given plus the fee, shared by market value; a leg without a
 *   price is valued by the trade itself (tradeValues);
 * - a purchase of NFTs when it gave fungibles and got NFTs only, a sale of NFTs the other way;
 * - a send or a receive otherwise.
 * The fee the wallet paid is spent from the native asset.
 */
export function transactionEntries(transaction: WalletLegs, valueAt: ValueAt): TransactionEntries {
  const unpriced: FungibleRef[] = [];
  const value = (fungible: FungibleRef, amount: bigint): number | undefined => {
    const found = valueAt(fungible, amount);
    if (found === undefined) unpriced.push(fungible);
    return found;
  };
  const ref = (asset: string): FungibleRef => ({ chainId: transaction.chainId, asset });
  const entries: TransactionEntries['entries'] = [];

  const fee = BigInt(transaction.feePaid || '0');
  // A fee leaves the native lots at their cost whatever it was worth: without a price then (blocks
  // before any pool) it counts 0 in total_fee and does not leave the native asset out.
  const feeValue = fee > 0n ? (valueAt(ref(''), fee) ?? 0) : 0;
  if (fee > 0n) entries.push({ fungible: ref(''), entry: { type: 'fee', amount: fee, value: feeValue } });

  const given: Leg[] = [];
  const got: Leg[] = [];
  for (const leg of transaction.legs) {
    const amount = BigInt(leg.amount);
    if (amount < 0n) given.push({ fungible: ref(leg.asset), amount: -amount });
    else got.push({ fungible: ref(leg.asset), amount });
  }

  if (given.length > 0 && got.length > 0) {
    const proceeds = tradeValues(given, got, valueAt);
    const worth = tradeValues(got, given, valueAt);
    given.forEach((leg, index) => proceeds[index] === undefined && unpriced.push(leg.fungible));
    got.forEach((leg, index) => worth[index] === undefined && unpriced.push(leg.fungible));
    for (const [index, leg] of given.entries())
      entries.push({ fungible: leg.fungible, entry: { type: 'sell', amount: leg.amount, proceeds: proceeds[index] ?? 0 } });
    const givenValue = proceeds.reduce<number>((sum, leg) => sum + (leg ?? 0), 0) + feeValue;
    const totalWorth = worth.reduce<number>((sum, leg) => sum + (leg ?? 0), 0);
    for (const [index, leg] of got.entries()) {
      // What was given (and the fee) bought what was got, shared by market value (by count without one).
      const cost = givenValue * (totalWorth === 0 ? 1 / got.length : (worth[index] ?? 0) / totalWorth);
      entries.push({ fungible: leg.fungible, entry: { type: 'buy', amount: leg.amount, cost } });
    }
  } else if (given.length > 0) {
    for (const leg of given) {
      const worth = value(leg.fungible, leg.amount) ?? 0;
      entries.push({
        fungible: leg.fungible,
        entry: transaction.nftReceived ? { type: 'pay-for-nft', amount: leg.amount, value: worth } : { type: 'send', amount: leg.amount, value: worth },
      });
    }
  } else if (got.length > 0) {
    for (const leg of got) {
      const worth = value(leg.fungible, leg.amount) ?? 0;
      entries.push({
        fungible: leg.fungible,
        entry: transaction.nftSent ? { type: 'receive-for-nft', amount: leg.amount, value: worth } : { type: 'receive', amount: leg.amount, value: worth },
      });
    }
  }
  return { entries, unpriced };
}
