import { unary } from '@wallet-api/core/grpc';
import { Network as ProtoNetwork, type RequestContext } from '@wallet-api/core/proto/common';
import type { WalletTransaction } from '@wallet-api/core/proto/events';
import type { TransactionRecord } from '@wallet-api/core/proto/indexer';
import type { ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import { createDappDirectory, createTokenDirectory, type DappTable, type TokenTable } from '@wallet-api/core/reference-data';
import {
  inBatches,
  noPrices,
  pagePrices,
  priceQueries,
  responseFungibles,
  toTransactionResource,
  transactionTokens as recordTokens,
  type FungibleDirectory,
  type PagePrices,
  type TransactionResource,
} from '@wallet-api/core/resources';
import { toTransactionRecord, transactionContracts, transactionTokens, walletView, type WalletTransactionView } from '@wallet-api/core/transactions';
import type { FilterSubject } from '../match/exclude-filter.js';
import type { Network } from '../match/subscription-entry.js';

/** Webhooks are valued in the API's default currency (decisions.md). */
const webhookCurrency = 'usd';

/** One subscribed wallet's reading of a transaction: what filters look at and what the webhook renders. */
export interface WalletReading {
  record: TransactionRecord;
  subject: FilterSubject;
}

/** Who a webhook is rendered for: its organization's add-ons decide `asset_class`. */
export interface Audience {
  organizationId: string;
  network: Network;
  addons: readonly string[];
}

export interface TransactionRenderer {
  /** Readings of the given (transaction, wallet) pairs, with one reference-data round trip for all. */
  read(pairs: readonly { tx: WalletTransaction; wallet: string }[]): Promise<WalletReading[]>;
  /** The spec 2.5 resources of the given readings, priced at their block times, one GetPrices call for all. */
  render(items: readonly { record: TransactionRecord; audience: Audience }[]): Promise<TransactionResource[]>;
}

export interface TransactionRendererOptions {
  referenceData: ReferenceDataClient;
  fungibles: FungibleDirectory;
  /** Absolute API root for the resources' links. */
  publicUrl: string;
}

function contextOf(audience: Audience): RequestContext {
  return {
    organizationId: audience.organizationId,
    roles: [],
    addons: [...audience.addons],
    network: audience.network === 'testnet' ? ProtoNetwork.NETWORK_TESTNET : ProtoNetwork.NETWORK_MAINNET,
  };
}

const audienceKey = (audience: Audience) => `${audience.network}:${[...audience.addons].sort().join(',')}`;

function subjectOf(record: TransactionRecord, view: WalletTransactionView): FilterSubject {
  const dappIds = new Set<string>();
  if (record.application?.dapp) dappIds.add(record.application.dapp.id);
  for (const act of record.acts) if (act.dapp) dappIds.add(act.dapp.id);
  return {
    operationType: record.operationType,
    isTrash: record.isTrash,
    dappIds: [...dappIds],
    counterparties: view.counterparties,
  };
}

export function createTransactionRenderer({ referenceData, fungibles, publicUrl }: TransactionRendererOptions): TransactionRenderer {
  const tokens = createTokenDirectory(referenceData);
  const dapps = createDappDirectory(referenceData);

  async function prices(records: readonly TransactionRecord[]): Promise<PagePrices> {
    const queries = priceQueries(records);
    if (queries.length === 0) return noPrices;
    const answers = await Promise.all(
      inBatches(queries).map((batch) =>
        unary(referenceData, referenceData.getPrices, { context: undefined, currency: webhookCurrency, queries: batch }, { name: 'ReferenceData/GetPrices' }),
      ),
    );
    return pagePrices(
      queries,
      answers.flatMap((answer) => answer.prices),
    );
  }

  return {
    async read(pairs) {
      if (pairs.length === 0) return [];
      const transactions = [...new Set(pairs.map((pair) => pair.tx))];
      const [tokenTable, dappTable]: [TokenTable, DappTable] = await Promise.all([
        tokens.load(transactions.flatMap(transactionTokens)),
        dapps.load(transactions.flatMap(transactionContracts)),
      ]);
      return pairs.map(({ tx, wallet }) => {
        // One wallet view serves both the record and the filters: this runs for every match.
        const view = walletView(tx, wallet, { lookup: tokenTable.info });
        const record = toTransactionRecord(tx, wallet, { tokens: tokenTable, dapps: dappTable }, { view });
        return { record, subject: subjectOf(record, view) };
      });
    },
    async render(items) {
      if (items.length === 0) return [];
      const audiences = new Map<string, { audience: Audience; records: TransactionRecord[] }>();
      for (const { record, audience } of items) {
        const key = audienceKey(audience);
        const group = audiences.get(key) ?? { audience, records: [] };
        group.records.push(record);
        audiences.set(key, group);
      }
      const [pagePriceTable, fungiblesByAudience] = await Promise.all([
        prices(items.map((item) => item.record)),
        Promise.all(
          [...audiences].map(async ([key, group]) => {
            const found = await fungibles.lookup(contextOf(group.audience), webhookCurrency, recordTokens(group.records));
            return [key, responseFungibles(found)] as const;
          }),
        ).then((entries) => new Map(entries)),
      ]);
      return items.map(({ record, audience }) => toTransactionResource(record, publicUrl, pagePriceTable, fungiblesByAudience.get(audienceKey(audience))!));
    },
  };
}
