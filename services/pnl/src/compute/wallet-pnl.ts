import { AssetKind, type WalletTransaction } from '@wallet-api/core/proto/events';
import type { RequestContext } from '@wallet-api/core/proto/common';
import { TokenInterface, type ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import { pricesAt, type TokenDirectory } from '@wallet-api/core/reference-data';
import { formatUnits } from 'viem';
import { averagePrices, pnlFigures, type PnlFigures, type PricedStatistics } from '../fifo/pnl-figures.js';
import type { FungibleRef } from '../fifo/transaction-entries.js';
import { walletLedgers, type FungibleLedger, type FungibleOf } from '../fifo/wallet-ledgers.js';
import type { HistoryReader } from '../history/history-reader.js';

export interface PnlRequest {
  context: RequestContext;
  /** One wallet, or a wallet set's (their histories are replayed together). */
  addresses: readonly string[];
  chainIds: readonly string[];
  currency: string;
  /** Only these fungibles, with a breakdown by id. */
  fungibleIds: readonly string[];
  /** Only these implementations (`<chain_id>:<address>` lowercase, '' address for native), each with lots of its own and a breakdown by implementation; takes precedence over fungibleIds. */
  fungibleImplementations: readonly string[];
  /** Unix seconds. */
  since?: number;
  till?: number;
}

export type BreakdownFigures = PnlFigures & { averageBuyPrice: number; averageSellPrice: number };

export interface PnlResult {
  figures: PnlFigures;
  breakdown?: { by: 'id' | 'implementation'; entries: Map<string, BreakdownFigures> };
  excludedFungibleIds: string[];
  excludedFungibleImplementations: string[];
}

export interface WalletPnl {
  compute(request: PnlRequest): Promise<PnlResult>;
}

const fungibleKinds = new Set([AssetKind.ASSET_KIND_NATIVE, AssetKind.ASSET_KIND_ERC20]);
const implementationKey = ({ chainId, asset }: FungibleRef) => `${chainId}:${asset}`;

/** Every fungible implementation the transactions move, the native asset of each chain included (fees). */
function implementationsOf(transactions: readonly WalletTransaction[]): FungibleRef[] {
  const found = new Map<string, FungibleRef>();
  for (const transaction of transactions) {
    found.set(`${transaction.chainId}:`, { chainId: transaction.chainId, asset: '' });
    for (const transfer of transaction.transfers) {
      if (!fungibleKinds.has(transfer.asset?.kind ?? AssetKind.ASSET_KIND_UNSPECIFIED)) continue;
      const ref = { chainId: transaction.chainId, asset: transfer.asset!.kind === AssetKind.ASSET_KIND_NATIVE ? '' : transfer.asset!.address.toLowerCase() };
      found.set(implementationKey(ref), ref);
    }
  }
  return [...found.values()];
}

/**
 * Profit and loss computed from the wallets' whole history: each transaction's legs valued at
 * reference-data's one price at its block time, replayed into FIFO ledgers per fungible, the open
 * lots valued at today's price. Spam and contracts that are no token are left out; a token
 * without a fungible id is a fungible of its own.
 */
export function createWalletPnl(options: { history: HistoryReader; tokens: TokenDirectory; referenceData: ReferenceDataClient }): WalletPnl {
  const { history, tokens, referenceData } = options;

  return {
    async compute(request) {
      const histories = await Promise.all(request.addresses.map((address) => history.history(address, request.chainIds)));
      const implementations = implementationsOf(histories.flat());
      const table = await tokens.load(
        implementations.map(({ chainId, asset }) => ({ chainId, address: asset })),
        request.context,
      );
      const onlyIds = new Set(request.fungibleIds);
      const onlyImplementations = new Set(request.fungibleImplementations);
      // The ledger key: the fungible, or the implementation itself under an implementation filter.
      const fungibleOf: FungibleOf = (ref) => {
        const info = table.info(ref.chainId, ref.asset);
        if (!info || info.isSpam || info.interface === TokenInterface.TOKEN_INTERFACE_UNKNOWN) return undefined;
        if (onlyImplementations.size > 0) return onlyImplementations.has(implementationKey(ref)) ? { fungibleId: implementationKey(ref), decimals: info.decimals } : undefined;
        const fungibleId = info.fungibleId || implementationKey(ref);
        return onlyIds.size === 0 || onlyIds.has(fungibleId) ? { fungibleId, decimals: info.decimals } : undefined;
      };

      // Every leg's price at its block time, asked once per implementation and time.
      const queries = new Map<string, { ref: FungibleRef; timestamp: number }>();
      histories.flat().forEach((transaction) => {
        for (const ref of implementationsOf([transaction])) {
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
      const valueAt = (ref: FungibleRef, amount: bigint, timestamp: number) => {
        const price = priceAt.get(`${implementationKey(ref)}|${timestamp}`);
        const fungible = fungibleOf(ref);
        return price === undefined || !fungible ? undefined : Number(formatUnits(amount, fungible.decimals)) * price;
      };

      const ledgers = request.addresses.map((address, index) =>
        walletLedgers({ wallet: address, transactions: histories[index]!, fungibleOf, valueAt, ...(request.since === undefined ? {} : { since: request.since }), ...(request.till === undefined ? {} : { till: request.till }) }),
      );
      return summarize(request, ledgers, await currentPrices(request, ledgers));
    },
  };

  /** Today's one price of each fungible the ledgers hold, asked of one of its implementations. */
  async function currentPrices(request: PnlRequest, ledgers: ReturnType<typeof walletLedgers>[]): Promise<Map<string, number | undefined>> {
    const fungibles = new Map<string, string>();
    for (const { fungibles: byId } of ledgers) for (const [id, ledger] of byId) fungibles.set(id, [...ledger.implementations][0]!);
    const ids = [...fungibles.keys()];
    const answers = await pricesAt(referenceData, {
      context: request.context,
      currency: request.currency,
      queries: ids.map((id) => {
        const implementation = fungibles.get(id)!;
        const split = implementation.indexOf(':');
        return { token: { chainId: implementation.slice(0, split), address: implementation.slice(split + 1) }, timestamp: '0' };
      }),
    });
    return new Map(ids.map((id, index) => [id, answers[index]]));
  }
}

/**
 * The figures of every ledger with a price today; ledgers lacking one (today, or at a movement
 * whose value the trade could not give) are left out and listed (spec 4.2 rule 1, for requests
 * without a fungible filter too: one unpriced airdrop must not fail a wallet's PnL). A fungible
 * filter adds the breakdown of each key asked for that has a ledger.
 */
function summarize(request: PnlRequest, ledgers: ReturnType<typeof walletLedgers>[], prices: Map<string, number | undefined>): PnlResult {
  const byKey = new Map<string, FungibleLedger[]>();
  const unpriced = new Set<string>();
  for (const ledger of ledgers) {
    for (const [key, fungible] of ledger.fungibles) byKey.set(key, [...(byKey.get(key) ?? []), fungible]);
    for (const key of ledger.unpriced) unpriced.add(key);
  }
  const excluded = [...byKey.keys()].filter((key) => unpriced.has(key) || prices.get(key) === undefined).sort();
  const kept = [...byKey.keys()].filter((key) => !excluded.includes(key)).sort();
  const priced = (key: string): PricedStatistics[] => byKey.get(key)!.map((fungible) => ({ statistics: fungible.statistics, decimals: fungible.decimals, price: prices.get(key)! }));
  const byImplementation = request.fungibleImplementations.length > 0;
  const breakdown = (key: string): BreakdownFigures => ({ ...pnlFigures(priced(key)), ...averagePrices(priced(key)) });
  return {
    figures: pnlFigures(kept.flatMap(priced)),
    ...(request.fungibleIds.length > 0 || byImplementation ? { breakdown: { by: byImplementation ? 'implementation' : 'id', entries: new Map(kept.map((key) => [key, breakdown(key)])) } as const } : {}),
    excludedFungibleIds: byImplementation ? [] : excluded,
    excludedFungibleImplementations: byImplementation ? excluded : [],
  };
}
