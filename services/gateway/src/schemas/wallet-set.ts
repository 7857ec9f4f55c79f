import { z } from 'zod';
import { walletSetAddressesParam } from './chart.js';
import { portfolioQuery } from './portfolio.js';
import { positionsQuery } from './position.js';
import { transactionsQuery } from './transaction.js';

// decisions.md, "Wallet sets": each wallet-set endpoint takes its wallet twin's parameters plus
// `addresses` (one or two, at most one EVM and one Solana; the rule lives beside the chart's,
// which was the first set endpoint).

export const walletSetPortfolioQuery = portfolioQuery.extend({ addresses: walletSetAddressesParam });

export const walletSetPositionsQuery = positionsQuery.extend({ addresses: walletSetAddressesParam });

/** What `links.next` of a wallet-set transactions page carries (see wallet-set-cursor.ts); at most a few hundred characters. */
const walletSetCursorParam = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,512}$/, 'is not a cursor this endpoint returned')
  .meta({ description: 'Opaque: the cursor of `links.next`, carrying where each wallet of the set stands.' });

// The wallet endpoint's page[lastId]/page[lastTimestamp] name one wallet's place; a set has one per
// wallet, so one opaque page[after] replaces them. The wallet query's object is refined, so its
// shape is taken apart rather than extended.
const { 'page[lastId]': _lastId, 'page[lastTimestamp]': _lastTimestamp, ...transactionFilters } = transactionsQuery.shape;

export const walletSetTransactionsQuery = z
  .object({ ...transactionFilters, addresses: walletSetAddressesParam, 'page[after]': walletSetCursorParam.optional() })
  .superRefine((query, context) => {
    const min = query['filter[min_mined_at]'];
    const max = query['filter[max_mined_at]'];
    if (min !== undefined && max !== undefined && min > max) {
      context.addIssue({ code: 'custom', path: ['filter[min_mined_at]'], message: 'must not be later than filter[max_mined_at]' });
    }
  });

export type WalletSetTransactionsQuery = z.infer<typeof walletSetTransactionsQuery>;
