import { AssetKind, type WalletTransaction } from '@wallet-api/core/proto/events';
import type { RequestContext } from '@wallet-api/core/proto/common';
import { TokenInterface, type ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import { pricesAt, type TokenDirectory } from '@wallet-api/core/reference-data';
import type { FungibleRef } from '../fifo/transaction-entries.js';
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
  price(transactions: readonly WalletTransaction[], request: PricingRequest): Promise<{ fungibleOf: FungibleOf; valueAt: ValueAt }>;
}

const fungibleKinds = new Set([AssetKind.ASSET_KIND_NATIVE, AssetKind.ASSET_KIND_ERC20]);
export const implementationKey = ({ chainId, asset }: FungibleRef) => `${chainId}:${asset}`;

/** Every fungible implementation a transaction moves, the native asset of its chain included (fees). */
function implementationsOf(transaction: WalletTransaction): FungibleRef[] {
  const found = new Map<string, FungibleRef>([[`${transaction.chainId}:`, { chainId: transaction.chainId, asset: '' }]]);
  for (const transfer of transaction.transfers) {
    if (!fungibleKinds.has(transfer.asset?.kind ?? AssetKind.ASSET_KIND_UNSPECIFIED)) continue;
    const ref = { chainId: transaction.chainId, asset: transfer.asset!.kind === AssetKind.ASSET_KIND_NATIVE ? '' : transfer.asset!.address.toLowerCase() };
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
      const perTransaction = transactions.map(implementationsOf);
      const implementations = new Map(perTransaction.flat().map((ref) => [implementationKey(ref), ref]));
      const table = await tokens.load(
        [...implementations.values()].map(({ chainId, asset }) => ({ chainId, address: asset })),
        request.context,
      );
      const fungibleOf: FungibleOf = (ref) => {
        const info = table.info(ref.chainId, ref.asset);
        if (!info || info.isSpam || info.interface === TokenInterface.TOKEN_INTERFACE_UNKNOWN) return undefined;
        const fungibleId = request.kind === 'implementation' ? implementationKey(ref) : info.fungibleId || implementationKey(ref);
        return { fungibleId, decimals: info.decimals };
      };

      const queries = new Map<string, { ref: FungibleRef; timestamp: number }>();
      transactions.forEach((transaction, index) => {
        for (const ref of perTransaction[index]!) {
          if (fungibleOf(ref)) queries.set(`${implementationKey(ref)}|${transaction.blockTimestamp}`, { ref, timestamp: Number(transaction.blockTimestamp) });
        }
      });
      const asked = [...queries.values()];
      const answers = await pricesAt(referenceData, {
        context: request.context,
        currency: request.currency,
        queries: asked.map(({ ref, timestamp }) => ({ token: { chainId: ref.chainId, address: ref.asset }, timestamp: String(timestamp) })),
      });
      const priceAt = new Map(asked.map(({ ref, timestamp }, index) => [`${implementationKey(ref)}|${timestamp}`, answers[index]]));
      const valueAt: ValueAt = (ref, amount, timestamp) => {
        const price = priceAt.get(`${implementationKey(ref)}|${timestamp}`);
        const fungible = fungibleOf(ref);
        return price === undefined || !fungible ? undefined : (Number(amount) / 10 ** fungible.decimals) * price;
      };
      return { fungibleOf, valueAt };
    },
  };
}
