import { z } from 'zod';
import { chartPeriods } from '@wallet-api/core/charts';
import { apiError } from '../http/api-error.js';
import { selfLinksSchema } from './common.js';
import { chainIdsFilter, csvList, currencyParam, evmAddressPattern, positionsFilterParam, isSolanaAddress, walletAddressParam } from './wallet-query.js';

/** Spec 4.1 path parameter `chart_period`. */
const chartPeriodParam = z.enum(chartPeriods, { error: `must be one of ${chartPeriods.join(', ')}` });

export const walletChartParams = walletAddressParam.extend({ chart_period: chartPeriodParam });
export const walletSetChartParams = z.object({ chart_period: chartPeriodParam });

/** `<position_manager_address>:<token_id>` at its longest: 42 + 1 + the 78 digits of 2^256-1. */
const maxPoolValueLength = 121;
const maxTokenId = 2n ** 256n - 1n;
const rawPoolIdPattern = /^0x[0-9a-f]{64}$/i;
const poolForms = 'an EVM address (0x and 40 hex digits) or <position_manager_address>:<token_id>';

/**
 * Why a pool filter value is none of spec 4.1's forms: a contract address (V2 LP token, V3 pool,
 * ERC-4626 vault) or an LP NFT `<position_manager_address>:<token_id>` (V3, V4), token_id in
 * canonical decimal up to 2^256-1 so one NFT has one spelling. Undefined when it is one of them.
 */
export function poolValueProblem(value: string): string | undefined {
  if (value.length > maxPoolValueLength) return `each pool address must be at most ${maxPoolValueLength} characters`;
  // V4 pools have no contract of their own: their positions are named by the position manager's NFT.
  if (rawPoolIdPattern.test(value)) return 'raw V4 pool ids (0x and 64 hex digits) are not accepted; use <position_manager_address>:<token_id>';
  const colon = value.indexOf(':');
  const address = colon === -1 ? value : value.slice(0, colon);
  if (!evmAddressPattern.test(address)) return `each pool address must be ${poolForms}`;
  if (colon === -1) return undefined;
  const tokenId = value.slice(colon + 1);
  if (!/^[0-9]+$/.test(tokenId)) return 'token_id must be one or more decimal digits';
  if (tokenId.length > 1 && tokenId.startsWith('0')) return 'token_id must not have leading zeros';
  if (BigInt(tokenId) > maxTokenId) return 'token_id must be at most 2^256-1';
  return undefined;
}

const poolValue = z.string().superRefine((value, context) => {
  const problem = poolValueProblem(value);
  if (problem) context.addIssue({ code: 'custom', message: problem });
});
const poolList = csvList(poolValue, 25);
const fungibleIdList = csvList(z.string().max(44, 'each fungible id must be at most 44 characters'), 25);

/**
 * Spec 4.1 and its limits (section 8); unknown parameters are ignored. The rules between
 * parameters are `chartFilters`', not refinements here: the routes' query must stay a plain object
 * for the OpenAPI document, and they are answered after the URL length.
 */
export const chartQuery = z.object({
  currency: currencyParam,
  'filter[chain_ids]': chainIdsFilter.optional(),
  'filter[fungible_ids]': fungibleIdList.optional(),
  'filter[exclude_fungible_ids]': fungibleIdList.optional(),
  'filter[pool_addresses]': poolList.optional().meta({ description: `Only these protocol positions, each ${poolForms}.` }),
  'filter[exclude_pool_addresses]': poolList.optional().meta({ description: `Every position but these, each ${poolForms}.` }),
  // Not defaulted: rule 3 needs to know whether it was sent.
  'filter[positions]': positionsFilterParam
    .unwrap()
    .optional()
    .meta({ description: '`only_simple` by default; `no_filter` by default with a pool filter, which refuses `only_simple`.' }),
});

const walletSetShape = 'one or two comma-separated addresses, at most one EVM and one Solana';

/** decisions.md, "Wallet sets": the `addresses` of a wallet set, in the order given. */
export const walletSetAddressesParam = z.string({ error: `must be ${walletSetShape}` }).transform((value, context) => {
  const fail = (message: string) => {
    context.addIssue({ code: 'custom', message });
    return z.NEVER;
  };
  const addresses = value.split(',').map((entry) => entry.trim());
  if (addresses.some((address) => address === '')) return fail(`must not contain an empty value (${walletSetShape})`);
  if (addresses.length > 2) return fail(`must name ${walletSetShape} (got ${addresses.length})`);
  const unknown = addresses.find((address) => !evmAddressPattern.test(address) && !isSolanaAddress(address));
  if (unknown !== undefined) return fail(`each address must be an EVM address (0x and 40 hex digits) or a Solana address (got "${unknown}")`);
  const evm = addresses.filter((address) => evmAddressPattern.test(address)).length;
  if (evm === 2) return fail('must name at most one EVM address (got two)');
  if (evm === 0 && addresses.length === 2) return fail('must name at most one Solana address (got two)');
  return addresses;
});

export const walletSetChartQuery = chartQuery.extend({ addresses: walletSetAddressesParam });

export type ChartQuery = z.infer<typeof chartQuery>;
export type PositionsFilterValue = NonNullable<ChartQuery['filter[positions]']>;
type PoolFilterName = 'filter[pool_addresses]' | 'filter[exclude_pool_addresses]';

/**
 * Spec 4.1's rules between parameters: the pairs that exclude each other and rule 2 (a 400 each),
 * then the `filter[positions]` in force: as sent, else `no_filter` with a pool filter (rule 3),
 * else `only_simple`.
 */
export function chartFilters(query: ChartQuery): PositionsFilterValue {
  if (query['filter[fungible_ids]'] && query['filter[exclude_fungible_ids]']) {
    throw apiError(400, 'parameter filter[fungible_ids]: cannot be combined with filter[exclude_fungible_ids]; send one of them');
  }
  if (query['filter[pool_addresses]'] && query['filter[exclude_pool_addresses]']) {
    throw apiError(400, 'parameter filter[pool_addresses]: cannot be combined with filter[exclude_pool_addresses]; send one of them');
  }
  const poolFilter: PoolFilterName | undefined = query['filter[pool_addresses]']
    ? 'filter[pool_addresses]'
    : query['filter[exclude_pool_addresses]']
      ? 'filter[exclude_pool_addresses]'
      : undefined;
  const sent = query['filter[positions]'];
  if (poolFilter && sent === 'only_simple') {
    throw apiError(400, `parameter ${poolFilter}: cannot be combined with filter[positions]=only_simple, which charts no protocol positions`);
  }
  return sent ?? (poolFilter ? 'no_filter' : 'only_simple');
}

/** Spec 2.4; decisions.md: id `<address>-<chart_period>`, a wallet set's addresses joined with `,`. */
export const walletChartResourceSchema = z
  .object({
    type: z.literal('wallet_chart'),
    id: z.string(),
    attributes: z.object({
      begin_at: z.iso.datetime(),
      end_at: z.iso.datetime(),
      points: z.array(z.tuple([z.number().int(), z.number()])).meta({ description: '`[unix_time_seconds, balance_value]` pairs, oldest first.' }),
    }),
  })
  .meta({ id: 'WalletChart' });

export const walletChartResponseSchema = z.object({ links: selfLinksSchema, data: walletChartResourceSchema }).meta({ id: 'WalletChartResponse' });

export type WalletChartResource = z.infer<typeof walletChartResourceSchema>;
