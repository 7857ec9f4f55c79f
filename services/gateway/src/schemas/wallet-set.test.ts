import type { z } from 'zod';
import { walletSetPortfolioQuery, walletSetPositionsQuery, walletSetTransactionsQuery } from './wallet-set.js';

const evm = '0x52908400098527886E0F7030069857D2E4169EE7';
const solana = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV';

/** The first problem as the route words it after `parameter `. */
function detail(schema: z.ZodType, query: object): string | undefined {
  const result = schema.safeParse(query);
  if (result.success) return undefined;
  const issue = result.error.issues[0]!;
  return `${issue.path.join('.')}: ${issue.message}`;
}

describe("wallet-set queries: the wallet twin's parameters plus addresses", () => {
  test.each([walletSetPortfolioQuery, walletSetPositionsQuery, walletSetTransactionsQuery])(
    'every set endpoint refuses two EVM, two Solana, three or empty addresses (%#)',
    (schema) => {
      expect(detail(schema, { addresses: `${evm},${solana}` })).toBeUndefined();
      expect(detail(schema, { addresses: `${evm},${evm.toLowerCase()}` })).toBe('addresses: must name at most one EVM address (got two)');
      expect(detail(schema, { addresses: `${solana},${solana}` })).toBe('addresses: must name at most one Solana address (got two)');
      expect(detail(schema, { addresses: `${evm},${solana},${evm}` })).toBe(
        'addresses: must name one or two comma-separated addresses, at most one EVM and one Solana (got 3)',
      );
      expect(detail(schema, { addresses: '' })).toBe(
        'addresses: must not contain an empty value (one or two comma-separated addresses, at most one EVM and one Solana)',
      );
      expect(detail(schema, {})).toBe('addresses: must be one or two comma-separated addresses, at most one EVM and one Solana');
    },
  );

  test("the wallet twins' own rules apply", () => {
    expect(detail(walletSetPortfolioQuery, { addresses: evm, 'filter[positions]': 'simple' })).toBe(
      'filter[positions]: must be only_simple, only_complex or no_filter',
    );
    expect(detail(walletSetPositionsQuery, { addresses: evm, sort: 'name' })).toBe('sort: must be value (largest value first) or -value (smallest first)');
    expect(detail(walletSetTransactionsQuery, { addresses: evm, 'page[size]': '101' })).toBe('page[size]: must be an integer from 1 to 100');
    expect(detail(walletSetTransactionsQuery, { addresses: evm, 'filter[min_mined_at]': '2', 'filter[max_mined_at]': '1' })).toBe(
      'filter[min_mined_at]: must not be later than filter[max_mined_at]',
    );
  });

  test("transactions page with one opaque page[after] instead of the wallet endpoint's page[lastId] and page[lastTimestamp]", () => {
    expect(walletSetTransactionsQuery.parse({ addresses: solana, 'page[after]': 'W251bGwsMF0' })['page[after]']).toBe('W251bGwsMF0');
    expect(detail(walletSetTransactionsQuery, { addresses: solana, 'page[after]': 'a+b/' })).toBe('page[after]: is not a cursor this endpoint returned');
    expect(walletSetTransactionsQuery.parse({ addresses: solana, 'page[lastId]': 'x' })).not.toHaveProperty('page[lastId]');
  });
});
