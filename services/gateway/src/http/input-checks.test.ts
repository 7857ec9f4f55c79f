import { arrayFormKey, nulCharacterPath } from './input-checks.js';

describe('nulCharacterPath', () => {
  test.each([
    ['a\0b', []],
    [{ a: 'x', b: 'y\0' }, ['b']],
    [{ list: ['ok', { deep: '\0' }] }, ['list', 1, 'deep']],
    [{ 'bad\0key': 1 }, ['bad\0key']],
  ])('%j has one at %j', (value, path) => {
    expect(nulCharacterPath(value)).toEqual(path);
  });

  test.each([['plain'], [{ a: ['b', { c: 'd\t\r\n' }], n: 1, nothing: null }], [42], [undefined]])('%j has none', (value) => {
    expect(nulCharacterPath(value)).toBeUndefined();
  });
});

describe('arrayFormKey', () => {
  const parameters = ['currency', 'filter[chain_ids]', 'page[size]'];

  test('finds a known parameter in array or index form', () => {
    expect(arrayFormKey({ currency: 'usd', 'filter[chain_ids][]': 'base' }, parameters)).toEqual({
      key: 'filter[chain_ids][]',
      parameter: 'filter[chain_ids]',
    });
    expect(arrayFormKey({ 'currency[0]': 'usd' }, parameters)).toEqual({ key: 'currency[0]', parameter: 'currency' });
  });

  test('leaves known parameters and keys of no parameter alone', () => {
    expect(arrayFormKey({ currency: 'usd', 'page[size]': '10', _: '1', 'filter[chain]': 'x', currencies: 'usd' }, parameters)).toBeUndefined();
  });
});
