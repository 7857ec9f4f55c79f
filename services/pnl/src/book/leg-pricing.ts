import type { WalletLegs } from '@wallet-api/core/proto/events';
import type { RequestContext } from '@wallet-api/core/proto/common';
import { TokenInterface, type ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import { priceAtStep, priceSeries, pricesAt, type TokenDirectory } from '@wallet-api/core/reference-data';
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


/** Every fungible implementation a wallet's legs move, the native asset of its chain when the wallet paid a fee. */
function implementationsOf(transaction: WalletLegs): FungibleRef[] {
  const refs = transaction.legs.map((leg) => ({ chainId: transaction.chainId, asset: leg.asset }));
  if (transaction.feePaid !== '' && !transaction.legs.some((leg) => leg.asset === '')) refs.push({ chainId: transaction.chainId, asset: '' });
  return refs;
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
  /** Leg times an implementation needs before its legs are priced from a series (16 unless given): a book's follow-up of a few legs asks GetPrices alone. */
  seriesFromTimes?: number;
}): LegPricing {
  const { tokens, referenceData } = options;
  const seriesFromTimes = options.seriesFromTimes ?? 16;
  return {
    async price(transactions, request) {
      const perTransaction = transactions.map(implementationsOf);
      const implementations = new Map(perTransaction.flat().map((ref) => [implementationKey(ref), ref]));
      const table = await tokens.load(
        [...implementations.values()].map(({ chainId, asset }) => ({ chainId, address: asset })),
        request.context,
      );
      // Per chain and asset, looked up without building a key: replaying 100,000 trades asks millions of times.
      const known = new Map<string, Map<string, { fungible: ReturnType<FungibleOf>; times: number[]; prices: Map<number, number | undefined> }>>();
      for (const ref of implementations.values()) {
        const info = table.info(ref.chainId, ref.asset);
        const counts = info && !info.isSpam && info.interface !== TokenInterface.TOKEN_INTERFACE_UNKNOWN;
        const fungibleId = request.kind === 'implementation' ? implementationKey(ref) : info?.fungibleId || implementationKey(ref);
        const onChain = known.get(ref.chainId) ?? known.set(ref.chainId, new Map()).get(ref.chainId)!;
        onChain.set(ref.asset, { fungible: counts ? { fungibleId, decimals: info.decimals } : undefined, times: [], prices: new Map() });
      }
      const lookup = (ref: FungibleRef) => known.get(ref.chainId)?.get(ref.asset);
      const fungibleOf: FungibleOf = (ref) => lookup(ref)?.fungible;

      // The times each implementation is priced at, once per second.
      transactions.forEach((transaction, index) => {
        const timestamp = Number(transaction.blockTimestamp);
        for (const ref of perTransaction[index]!) {
          const implementation = lookup(ref)!;
          if (!implementation.fungible || implementation.prices.has(timestamp)) continue;
          implementation.prices.set(timestamp, undefined);
          implementation.times.push(timestamp);
        }
      });
      // One price series per implementation over the span of its legs: a few hundred steps stand for
      // thousands of legs. A token without steps (LP, vault shares), a time of 0 (which GetPrices
      // reads as now) and an implementation of a few legs are asked leg by leg.
      const spans = [...implementations.values()].flatMap((ref) => {
        const implementation = lookup(ref)!;
        if (implementation.times.length === 0) return [];
        let [from, to] = [Infinity, -Infinity];
        for (const time of implementation.times) [from, to] = [Math.min(from, time), Math.max(to, time)];
        return [{ ref, implementation, from, to }];
      });
      const stepwise = spans.filter(({ from, implementation }) => from > 0 && implementation.times.length >= seriesFromTimes);
      const series = await priceSeries(referenceData, {
        context: request.context,
        currency: request.currency,
        // A series is worth its steps while they are fewer than the legs' times (a liquid token's
        // minutes over a long span outnumber them): past that, the legs are asked one by one.
        queries: stepwise.map(({ ref, implementation, from, to }) => ({ token: { chainId: ref.chainId, address: ref.asset }, from, to, maxSteps: implementation.times.length })),
      });
      const steps = new Map(stepwise.map(({ implementation }, index) => [implementation, series[index]]));
      const asked: { ref: FungibleRef; timestamp: number }[] = [];
      for (const { ref, implementation } of spans) {
        const found = steps.get(implementation);
        for (const timestamp of implementation.times) {
          if (found) implementation.prices.set(timestamp, priceAtStep(found, timestamp));
          else asked.push({ ref, timestamp });
        }
      }
      const answers = await pricesAt(referenceData, {
        context: request.context,
        currency: request.currency,
        queries: asked.map(({ ref, timestamp }) => ({ token: { chainId: ref.chainId, address: ref.asset }, timestamp: String(timestamp) })),
      });
      asked.forEach(({ ref, timestamp }, index) => lookup(ref)!.prices.set(timestamp, answers[index]));
      const valueAt: ValueAt = (ref, amount, timestamp) => {
        const implementation = lookup(ref);
        const price = implementation?.prices.get(timestamp);
        return price === undefined || !implementation!.fungible ? undefined : (Number(amount) / 10 ** implementation!.fungible.decimals) * price;
      };
      return { fungibleOf, valueAt };
    },
  };
}
