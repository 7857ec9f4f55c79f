import { pnlQuery, walletSetPnlQuery } from './pnl.js';

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
const token = `0x${'ab'.repeat(20)}`;
const solana = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';

describe('spec 4.2 parameters', () => {
  test('all accepted at their limits, with defaults', () => {
    const parsed = pnlQuery.parse({
      'filter[chain_ids]': list(25, (index) => `chain-${index}`),
      'filter[fungible_ids]': list(100, (index) => `${'f'.repeat(40)}${index}`.slice(-44)),
      'filter[fungible_implementations]': `${list(99, (index) => `chain-${index}:${token}`)},solana:${solana}`,
      since: '1700000000000',
      till: '1800000000000',
    });
    expect(parsed.currency).toBe('usd');
    expect(parsed.since).toBe(1_700_000_000_000n);
    expect(parsed['filter[fungible_implementations]']).toHaveLength(100);
  });

  test.each([
    ['since of 12 digits', { since: '170000000000' }, 'since: must be a unix timestamp in milliseconds of exactly 13 digits'],
    ['till in seconds', { till: '1700000000' }, 'till: must be a unix timestamp in milliseconds of exactly 13 digits'],
    ['since with a sign', { since: '-700000000000' }, 'since: must be a unix timestamp in milliseconds of exactly 13 digits'],
    ['101 fungible ids', { 'filter[fungible_ids]': list(101, (index) => `f${index}`) }, 'filter[fungible_ids]: must name at most 100 values (got 101)'],
    [
      'a fungible id of 45 characters',
      { 'filter[fungible_ids]': 'x'.repeat(45) },
      `filter[fungible_ids]: each fungible id must be at most 44 characters (got "${'x'.repeat(45)}")`,
    ],
    [
      '101 implementations',
      { 'filter[fungible_implementations]': list(101, (index) => `c${index}:${token}`) },
      'filter[fungible_implementations]: must name at most 100 values (got 101)',
    ],
    [
      'an implementation without its chain',
      { 'filter[fungible_implementations]': token },
      `filter[fungible_implementations]: each implementation must be <chain_id>:<address> (an EVM or Solana token address) (got "${token}")`,
    ],
    [
      'an implementation with a bad address',
      { 'filter[fungible_implementations]': 'ethereum:0x12' },
      'filter[fungible_implementations]: each implementation must be <chain_id>:<address> (an EVM or Solana token address) (got "ethereum:0x12")',
    ],
    [
      'an empty fungible id',
      { 'filter[fungible_ids]': 'eth,' },
      'filter[fungible_ids]: must not contain an empty value (a comma-separated list of non-empty values)',
    ],
    ['an unknown currency', { currency: 'doge' }, 'currency: must be one of eth, btc, usd, eur, krw, rub, gbp, aud, cad, inr, jpy, nzd, try, zar, cny, chf'],
  ])('%s: 400', (_name, query, expected) => {
    expect(detail(pnlQuery, query)).toBe(expected);
  });

  test('wallet sets take one EVM and one Solana address at most', () => {
    expect(detail(walletSetPnlQuery, { addresses: `${token},${solana}` })).toBeUndefined();
    expect(detail(walletSetPnlQuery, { addresses: `${token},${token}` })).toBe('addresses: must name at most one EVM address (got two)');
  });
});
