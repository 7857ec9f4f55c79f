import type { WalletLegs } from '@wallet-api/core/proto/events';
import type { RequestContext } from '@wallet-api/core/proto/common';
import { TokenInterface, type ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import { priceAtStep, priceSeries, pricesAt, type PriceSteps, type TokenDirectory } from '@wallet-api/core/reference-data';
import { implementationKey, type FungibleRef } from '../fifo/transaction-entries.js';
import type { FungibleOf, ValueAt } from './wallet-book.js';

/** What a book's ledgers are kept by: the fungible (its implementations together) or each implementation alone. */
export type LedgerKind = 'fungible' | 'implementation';

export interface PricingRequest {
  context: RequestContext;
  currency: string;
  kind: LedgerKind;
}

export interface LegPricing {
  /** The ledger key and the value at its time of every leg the transactions move. */
  price(transactions: readonly WalletLegs[], request: PricingRequest): Promise<{ fungibleOf: FungibleOf; valueAt: ValueAt }>;
}

/** The implementations a transaction's legs move (the native asset too when the wallet paid a fee), each with the transaction's time. */
function eachImplementation(transaction: WalletLegs, visit: (chainId: string, asset: string, time: number) => void): void {
  const time = Number(transaction.blockTimestamp);
  let native = false;
  for (const leg of transaction.legs) {
    visit(transaction.chainId, leg.asset, time);
    native ||= leg.asset === '';
  }
  if (transaction.feePaid !== '' && !native) visit(transaction.chainId, '', time);
}

/** What pricing knows of one implementation: its ledger, its legs' span, and its prices. */
interface Implementation {
  ref: FungibleRef;
  fungible: ReturnType<FungibleOf>;
  legs: number;
  from: number;
  to: number;
  /** Its price over [from, to], when reference-data gave a series. */
  series?: PriceSteps;
  /** Its price at each leg's time otherwise (undefined: none then). */
  prices?: Map<number, number | undefined>;
}

/**
 * Legs valued at reference-data's one price at their block time, from a price series per
 * implementation over its legs' span (GetPrices leg by leg for a token without steps). Spam and
 * contracts that are no token are no ledger (and no price); a token without a fungible id is a
 * fungible of its own.
 */
export function createLegPricing(options: {
  tokens: TokenDirectory;
  referenceData: ReferenceDataClient;
  /** Legs an implementation needs before they are priced from a series (16 unless given): a book's follow-up of a few legs asks GetPrices alone. */
  seriesFromLegs?: number;
}): LegPricing {
  const { tokens, referenceData } = options;
  const seriesFromLegs = options.seriesFromLegs ?? 16;
  return {
    async price(transactions, request) {
      // Per chain and asset, looked up without building a key: replaying 100,000 trades asks millions of times.
      const known = new Map<string, Map<string, Implementation>>();
      const implementations: Implementation[] = [];
      const lookup = (chainId: string, asset: string) => known.get(chainId)?.get(asset);
      for (const transaction of transactions) {
        eachImplementation(transaction, (chainId, asset, time) => {
          let implementation = lookup(chainId, asset);
          if (!implementation) {
            implementation = { ref: { chainId, asset }, fungible: undefined, legs: 0, from: Infinity, to: -Infinity };
            (known.get(chainId) ?? known.set(chainId, new Map()).get(chainId)!).set(asset, implementation);
            implementations.push(implementation);
          }
          implementation.legs += 1;
          if (time < implementation.from) implementation.from = time;
          if (time > implementation.to) implementation.to = time;
        });
      }
      const table = await tokens.load(
        implementations.map(({ ref }) => ({ chainId: ref.chainId, address: ref.asset })),
        request.context,
      );
      for (const implementation of implementations) {
        const { ref } = implementation;
        const info = table.info(ref.chainId, ref.asset);
        const counts = info && !info.isSpam && info.interface !== TokenInterface.TOKEN_INTERFACE_UNKNOWN;
        const fungibleId = request.kind === 'implementation' ? implementationKey(ref) : info?.fungibleId || implementationKey(ref);
        implementation.fungible = counts ? { fungibleId, decimals: info.decimals } : undefined;
      }
      const fungibleOf: FungibleOf = (ref) => lookup(ref.chainId, ref.asset)?.fungible;

      // One price series per implementation over the span of its legs: a few hundred steps stand for
      // thousands of legs. A token without steps (LP, vault shares), a time of 0 (which GetPrices
      // reads as now) and an implementation of a few legs are asked leg by leg.
      const priced = implementations.filter((implementation) => implementation.fungible);
      const stepwise = priced.filter(({ from, legs }) => from > 0 && legs >= seriesFromLegs);
      const series = await priceSeries(referenceData, {
        context: request.context,
        currency: request.currency,
        // A series is worth its steps while they are fewer than the legs (a liquid token's minutes
        // over a long span outnumber them): past that, the legs are asked one by one.
        queries: stepwise.map(({ ref, from, to, legs }) => ({ token: { chainId: ref.chainId, address: ref.asset }, from, to, maxSteps: legs })),
      });
      stepwise.forEach((implementation, index) => (implementation.series = series[index]));
      const legByLeg = priced.filter((implementation) => !implementation.series);
      const asked: { implementation: Implementation; timestamp: number }[] = [];
      if (legByLeg.length > 0) {
        for (const implementation of legByLeg) implementation.prices = new Map();
        for (const transaction of transactions) {
          eachImplementation(transaction, (chainId, asset, time) => {
            const implementation = lookup(chainId, asset)!;
            if (!implementation.prices || implementation.prices.has(time)) return;
            implementation.prices.set(time, undefined);
            asked.push({ implementation, timestamp: time });
          });
        }
      }
      const answers = await pricesAt(referenceData, {
        context: request.context,
        currency: request.currency,
        queries: asked.map(({ implementation: { ref }, timestamp }) => ({ token: { chainId: ref.chainId, address: ref.asset }, timestamp: String(timestamp) })),
      });
      asked.forEach(({ implementation, timestamp }, index) => implementation.prices!.set(timestamp, answers[index]));
      const valueAt: ValueAt = (ref, amount, timestamp) => {
        const implementation = lookup(ref.chainId, ref.asset);
        if (!implementation?.fungible) return undefined;
        const price = implementation.series ? priceAtStep(implementation.series, timestamp) : implementation.prices?.get(timestamp);
        return price === undefined ? undefined : (Number(amount) / 10 ** implementation.fungible.decimals) * price;
      };
      return { fungibleOf, valueAt };
    },
  };
}
