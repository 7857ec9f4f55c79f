import { ApiError } from '../http/api-error.js';
import { chartFilters, chartQuery, poolValueProblem, walletChartParams, walletSetChartQuery } from './chart.js';

const detail = (
  schema: { safeParse(value: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } },
  value: unknown,
) => {
  const result = schema.safeParse(value);
  if (result.success) return undefined;
  const issue = result.error!.issues[0]!;
  return `${issue.path.map(String).join('.')}: ${issue.message}`;
};
const list = (count: number, item: (index: number) => string) => Array.from({ length: count }, (_, index) => item(index)).join(',');
/** The status and detail `run` throws, or what it returns. */
const outcome = (run: () => unknown) => {
  try {
    return run();
  } catch (error) {
    if (error instanceof ApiError) return [error.status, error.detail];
    throw error;
  }
};

const manager = '0xC36442b4a4522E871399CD717aBDD847Ab11FE88';
const maxTokenId = (2n ** 256n - 1n).toString();
const evm = `0x${'ab'.repeat(20)}`;
const solana = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';

describe('pool filter values (spec 4.1)', () => {
  test.each([
    ['a contract address', manager],
    ['a lowercase contract address', manager.toLowerCase()],
    ['an uppercase-hex contract address', `0x${manager.slice(2).toUpperCase()}`],
    ['an LP NFT with token_id 0', `${manager}:0`],
    ['an LP NFT', `${manager}:12345`],
    ['an LP NFT with token_id 2^256-1 (121 characters)', `${manager}:${maxTokenId}`],
  ])('%s is accepted', (_name, value) => {
    expect(poolValueProblem(value)).toBeUndefined();
  });

  test.each([
    ['token_id 2^256', `${manager}:${(2n ** 256n).toString()}`, 'token_id must be at most 2^256-1'],
    ['a leading zero', `${manager}:0123`, 'token_id must not have leading zeros'],
    ['a zero written twice', `${manager}:00`, 'token_id must not have leading zeros'],
    ['an empty token_id', `${manager}:`, 'token_id must be one or more decimal digits'],
    ['a hex token_id', `${manager}:0x1f`, 'token_id must be one or more decimal digits'],
    ['a signed token_id', `${manager}:-1`, 'token_id must be one or more decimal digits'],
    ['a fractional token_id', `${manager}:1.5`, 'token_id must be one or more decimal digits'],
    ['two colons', `${manager}:1:2`, 'token_id must be one or more decimal digits'],
    ['a raw 32-byte V4 pool id', `0x${'ab'.repeat(32)}`, 'raw V4 pool ids (0x and 64 hex digits) are not accepted; use <position_manager_address>:<token_id>'],
    [
      'an uppercase raw V4 pool id',
      `0x${'AB'.repeat(32)}`,
      'raw V4 pool ids (0x and 64 hex digits) are not accepted; use <position_manager_address>:<token_id>',
    ],
    ['a short address', '0x1234', 'each pool address must be an EVM address (0x and 40 hex digits) or <position_manager_address>:<token_id>'],
    ['an address without 0x', manager.slice(2), 'each pool address must be an EVM address (0x and 40 hex digits) or <position_manager_address>:<token_id>'],
    ['a Solana address', solana, 'each pool address must be an EVM address (0x and 40 hex digits) or <position_manager_address>:<token_id>'],
    ['a bad manager address', `0x1234:1`, 'each pool address must be an EVM address (0x and 40 hex digits) or <position_manager_address>:<token_id>'],
    ['122 characters', `${manager}:1${'0'.repeat(78)}`, 'each pool address must be at most 121 characters'],
  ])('%s is refused', (_name, value, expected) => {
    expect(poolValueProblem(value)).toBe(expected);
  });
});

describe('chartQuery', () => {
  test('defaults: usd, and filter[positions] left unset for rule 3', () => {
    expect(chartQuery.parse({ 'page[size]': '5' })).toEqual({ currency: 'usd' });
  });

  test('lists split on commas, trimmed, up to 25 values', () => {
    const pools = list(25, (index) => `${manager}:${index}`);
    const parsed = chartQuery.parse({
      'filter[chain_ids]': list(25, (index) => `chain-${index}`),
      'filter[fungible_ids]': `${'f'.repeat(44)}, usdc`,
      'filter[pool_addresses]': pools,
      'filter[exclude_pool_addresses]': pools,
      'filter[positions]': 'no_filter',
    });
    expect(parsed['filter[chain_ids]']).toHaveLength(25);
    expect(parsed['filter[fungible_ids]']).toEqual(['f'.repeat(44), 'usdc']);
    expect(parsed['filter[pool_addresses]']).toHaveLength(25);
    expect(parsed['filter[exclude_pool_addresses]']).toHaveLength(25);
    expect(parsed['filter[positions]']).toBe('no_filter');
  });

  const empty = 'must not contain an empty value (a comma-separated list of non-empty values)';
  test.each([
    [{ currency: 'USD' }, 'currency: must be one of eth, btc, usd, eur, krw, rub, gbp, aud, cad, inr, jpy, nzd, try, zar, cny, chf'],
    [{ 'filter[chain_ids]': list(26, () => 'ethereum') }, 'filter[chain_ids]: must name at most 25 values (got 26)'],
    [{ 'filter[fungible_ids]': list(26, (index) => `f${index}`) }, 'filter[fungible_ids]: must name at most 25 values (got 26)'],
    [{ 'filter[exclude_fungible_ids]': list(26, (index) => `f${index}`) }, 'filter[exclude_fungible_ids]: must name at most 25 values (got 26)'],
    [{ 'filter[fungible_ids]': 'f'.repeat(45) }, `filter[fungible_ids]: each fungible id must be at most 44 characters (got "${'f'.repeat(45)}")`],
    [
      { 'filter[exclude_fungible_ids]': 'f'.repeat(45) },
      `filter[exclude_fungible_ids]: each fungible id must be at most 44 characters (got "${'f'.repeat(45)}")`,
    ],
    [{ 'filter[pool_addresses]': list(26, (index) => `${manager}:${index}`) }, 'filter[pool_addresses]: must name at most 25 values (got 26)'],
    [{ 'filter[exclude_pool_addresses]': list(26, (index) => `${manager}:${index}`) }, 'filter[exclude_pool_addresses]: must name at most 25 values (got 26)'],
    [{ 'filter[pool_addresses]': `${manager}:007` }, `filter[pool_addresses]: token_id must not have leading zeros (got "${manager}:007")`],
    [
      { 'filter[exclude_pool_addresses]': `0x${'ab'.repeat(32)}` },
      `filter[exclude_pool_addresses]: raw V4 pool ids (0x and 64 hex digits) are not accepted; use <position_manager_address>:<token_id> (got "0x${'ab'.repeat(32)}")`,
    ],
    [{ 'filter[pool_addresses]': '' }, `filter[pool_addresses]: ${empty}`],
    [{ 'filter[exclude_pool_addresses]': `${manager},` }, `filter[exclude_pool_addresses]: ${empty}`],
    [{ 'filter[fungible_ids]': '' }, `filter[fungible_ids]: ${empty}`],
    [{ 'filter[exclude_fungible_ids]': 'eth,,usdc' }, `filter[exclude_fungible_ids]: ${empty}`],
    [{ 'filter[chain_ids]': '' }, `filter[chain_ids]: ${empty}`],
    [{ 'filter[positions]': 'all' }, 'filter[positions]: must be only_simple, only_complex or no_filter'],
    [{ 'filter[positions]': '' }, 'filter[positions]: must be only_simple, only_complex or no_filter'],
  ])('%j is refused: %s', (query, expected) => {
    expect(detail(chartQuery, query)).toBe(expected);
  });

  test('chart_period is one of spec 4.1 periods', () => {
    expect(walletChartParams.parse({ address: evm, chart_period: '3months' })).toEqual({ address: evm, chart_period: '3months' });
    expect(detail(walletChartParams, { address: evm, chart_period: '2years' })).toBe(
      'chart_period: must be one of hour, day, week, month, 3months, 6months, year, 5years, max',
    );
  });
});

describe('wallet-set addresses (decisions.md, "Wallet sets")', () => {
  test.each([
    [evm, [evm]],
    [solana, [solana]],
    [`${evm},${solana}`, [evm, solana]],
    [`${solana}, ${evm}`, [solana, evm]],
  ])('%s is a set', (addresses, expected) => {
    expect(walletSetChartQuery.parse({ addresses }).addresses).toEqual(expected);
  });

  test.each([
    [{}, 'addresses: must be one or two comma-separated addresses, at most one EVM and one Solana'],
    [{ addresses: '' }, 'addresses: must not contain an empty value (one or two comma-separated addresses, at most one EVM and one Solana)'],
    [{ addresses: `${evm},` }, 'addresses: must not contain an empty value (one or two comma-separated addresses, at most one EVM and one Solana)'],
    [{ addresses: `${evm},${solana},${evm}` }, 'addresses: must name one or two comma-separated addresses, at most one EVM and one Solana (got 3)'],
    [{ addresses: `${evm},0x1234` }, 'addresses: each address must be an EVM address (0x and 40 hex digits) or a Solana address (got "0x1234")'],
    [{ addresses: `${evm},${evm.toUpperCase().replace('0X', '0x')}` }, 'addresses: must name at most one EVM address (got two)'],
    [{ addresses: `${solana},${solana}` }, 'addresses: must name at most one Solana address (got two)'],
  ])('%j is refused: %s', (query, expected) => {
    expect(detail(walletSetChartQuery, query)).toBe(expected);
  });
});

describe('rules between the chart filters', () => {
  const pool = { 'filter[pool_addresses]': [manager] };
  const excludePool = { 'filter[exclude_pool_addresses]': [`${manager}:1`] };
  const query = (fields: object) => ({ currency: 'usd' as const, ...fields });

  test.each([
    ['nothing: only_simple', {}, 'only_simple'],
    ['filter[positions] as sent', { 'filter[positions]': 'only_complex' }, 'only_complex'],
    ['rule 3: a pool filter alone means no_filter', pool, 'no_filter'],
    ['rule 3 for the exclude filter', excludePool, 'no_filter'],
    ['a pool filter with only_complex', { ...pool, 'filter[positions]': 'only_complex' }, 'only_complex'],
    ['a pool filter with no_filter', { ...excludePool, 'filter[positions]': 'no_filter' }, 'no_filter'],
    ['either fungible filter alone', { 'filter[exclude_fungible_ids]': ['eth'] }, 'only_simple'],
  ])('%s', (_name, fields, expected) => {
    expect(outcome(() => chartFilters(query(fields)))).toEqual(expected);
  });

  test.each([
    [
      'fungible ids with their exclusion',
      { 'filter[fungible_ids]': ['eth'], 'filter[exclude_fungible_ids]': ['usdc'] },
      'parameter filter[fungible_ids]: cannot be combined with filter[exclude_fungible_ids]; send one of them',
    ],
    [
      'pool addresses with their exclusion',
      { ...pool, ...excludePool },
      'parameter filter[pool_addresses]: cannot be combined with filter[exclude_pool_addresses]; send one of them',
    ],
    [
      'rule 2: filter[pool_addresses] with only_simple',
      { ...pool, 'filter[positions]': 'only_simple' },
      'parameter filter[pool_addresses]: cannot be combined with filter[positions]=only_simple, which charts no protocol positions',
    ],
    [
      'rule 2: filter[exclude_pool_addresses] with only_simple',
      { ...excludePool, 'filter[positions]': 'only_simple' },
      'parameter filter[exclude_pool_addresses]: cannot be combined with filter[positions]=only_simple, which charts no protocol positions',
    ],
  ])('%s: 400', (_name, fields, expected) => {
    expect(outcome(() => chartFilters(query(fields)))).toEqual([400, expected]);
  });
});
