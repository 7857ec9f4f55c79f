import { gasPricesQuery } from './gas-price.js';

const detail = (query: Record<string, string>) => {
  const result = gasPricesQuery.safeParse(query);
  if (result.success) return undefined;
  const issue = result.error.issues[0]!;
  return `${issue.path.join('.')}: ${issue.message}`;
};

describe('gasPricesQuery', () => {
  test('no filters: every chain and gas type', () => {
    expect(gasPricesQuery.parse({})).toEqual({});
  });

  test('comma-separated chains and gas types', () => {
    expect(gasPricesQuery.parse({ 'filter[chain_ids]': 'ethereum,base', 'filter[gas_types]': 'eip1559,classic,optimistic' })).toEqual({
      'filter[chain_ids]': ['ethereum', 'base'],
      'filter[gas_types]': ['eip1559', 'classic', 'optimistic'],
    });
  });

  test.each([
    [{ 'filter[gas_types]': 'legacy' }, 'filter[gas_types]: each value must be one of classic, eip1559, optimistic (got "legacy")'],
    [{ 'filter[gas_types]': 'classic,classic,eip1559,optimistic' }, 'filter[gas_types]: must name at most 3 values (got 4)'],
    [{ 'filter[chain_ids]': 'ethereum,' }, 'filter[chain_ids]: must not contain an empty value (a comma-separated list of non-empty values)'],
    [{ 'filter[chain_ids]': 'eth/ereum' }, 'filter[chain_ids]: each chain id must be 1 to 64 letters, digits, dots, dashes or underscores (got "eth/ereum")'],
  ])('%j is refused: %s', (query, expected) => {
    expect(detail(query)).toBe(expected);
  });
});
