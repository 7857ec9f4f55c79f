import { canonicalWallet } from '@wallet-api/core/addresses';
import { AssetKind, type WalletTransaction } from '@wallet-api/core/proto/events';
import type { RequestContext } from '@wallet-api/core/proto/common';
import { TokenInterface, type ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import { pricesAt, type TokenDirectory } from '@wallet-api/core/reference-data';
import { feePaidBy, fungibleKinds, implementationKey, type FungibleRef } from '../fifo/transaction-entries.js';
import type { FungibleOf, ValueAt } from './wallet-book.js';

/** What a book's ledgers are kept by: the fungible (its implementations together) or each implementation alone. */
export type LedgerKind = 'fungible' | 'implementation';

export interface PricingRequest {
  context: RequestContext;
  /** The wallet whose legs are priced: its fees need the native asset's price. */
  address: string;
  currency: string;
  kind: LedgerKind;
}

export interface LegPricing {
  /** The ledger key and the value at its time of every leg the transactions move. */
  price(transactions: readonly WalletTransaction[], request: PricingRequest): Promise<{ fungibleOf: FungibleOf; valueAt: ValueAt }>;
}


/** Every fungible implementation a transaction moves, the native asset of its chain when the wallet paid its fee. */
function implementationsOf(transaction: WalletTransaction, wallet: string): FungibleRef[] {
  const found = new Map<string, FungibleRef>();
  // A transaction the wallet did not pay for needs no native price unless it moved the native
  // asset: a third fewer price lookups for a wallet that mostly receives.
  if (feePaidBy(transaction, wallet) > 0n) found.set(`${transaction.chainId}:`, { chainId: transaction.chainId, asset: '' });
  for (const transfer of transaction.transfers) {
    if (!fungibleKinds.has(transfer.asset?.kind ?? AssetKind.ASSET_KIND_UNSPECIFIED)) continue;
    const ref = { chainId: transaction.chainId, asset: transfer.asset!.kind === AssetKind.ASSET_KIND_NATIVE ? '' : canonicalWallet(transfer.asset!.address) };
    found.set(implementationKey(ref), ref);
  }
  return [...found.values()];
}

/**
 * Legs valued at reference-data's one price at their block time, asked once per implementation
 * and second in one batch. Spam and contracts that are no token are no ledger (and no price); a
 * token without a fungible id is a fungible of its own.
 */
export function createLegPricing(options: { tokens: TokenDirectory; referenceData: ReferenceDataClient }): LegPricing {
  const { tokens, referenceData } = options;
  return {
    async price(transactions, request) {
      const perTransaction = transactions.map((transaction) => implementationsOf(transaction, request.address));
      const implementations = new Map(perTransaction.flat().map((ref) => [implementationKey(ref), ref]));
      const table = await tokens.load(
        [...implementations.values()].map(({ chainId, asset }) => ({ chainId, address: asset })),
        request.context,
      );
      // Per chain and asset, looked up without building a key: replaying 100,000 trades asks millions of times.
      const known = new Map<string, Map<string, { fungible: ReturnType<FungibleOf>; prices: Map<number, number | undefined> }>>();
      for (const ref of implementations.values()) {
        const info = table.info(ref.chainId, ref.asset);
        const counts = info && !info.isSpam && info.interface !== TokenInterface.TOKEN_INTERFACE_UNKNOWN;
        const fungibleId = request.kind === 'implementation' ? implementationKey(ref) : info?.fungibleId || implementationKey(ref);
        const onChain = known.get(ref.chainId) ?? known.set(ref.chainId, new Map()).get(ref.chainId)!;
        onChain.set(ref.asset, { fungible: counts ? { fungibleId, decimals: info.decimals } : undefined, prices: new Map() });
      }
      const lookup = (ref: FungibleRef) => known.get(ref.chainId)?.get(ref.asset);
      const fungibleOf: FungibleOf = (ref) => lookup(ref)?.fungible;

      // Every leg's price at its block time, asked once per implementation and second.
      const asked: { ref: FungibleRef; timestamp: number }[] = [];
      transactions.forEach((transaction, index) => {
        const timestamp = Number(transaction.blockTimestamp);
        for (const ref of perTransaction[index]!) {
          const implementation = lookup(ref)!;
          if (!implementation.fungible || implementation.prices.has(timestamp)) continue;
          implementation.prices.set(timestamp, undefined);
          asked.push({ ref, timestamp });
        }
      });
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
