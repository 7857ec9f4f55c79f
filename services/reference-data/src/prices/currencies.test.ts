import { fileURLToPath } from 'node:url';
import { convertUsd, isCurrency, loadFxTable, type FxTable } from './currencies.js';

const bundled = fileURLToPath(new URL('../../config/fx-rates.json', import.meta.url));

describe('currencies', () => {
  let fx: FxTable;
  beforeAll(async () => {
    fx = await loadFxTable(bundled);
  });

  test('the bundled FX table has every fiat currency of the spec and its as-of date', () => {
    expect(fx.as_of).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(Object.keys(fx.rates).sort()).toEqual(['aud', 'cad', 'chf', 'cny', 'eur', 'gbp', 'inr', 'jpy', 'krw', 'nzd', 'rub', 'try', 'zar']);
  });

  test.each([
    ['usd', 150, 150],
    ['eur', 150, 150 * 0.971],
    ['eth', 150, 150 / 3000],
    ['btc', 150, 150 / 60_000],
  ] as const)('converts USD to %s', (currency, usd, expected) => {
    expect(convertUsd(usd, currency, fx, { eth: 3000, btc: 60_000 })).toBeCloseTo(expected, 12);
  });

  test('a crypto currency without a price converts to nothing; only the 16 currencies are known', () => {
    expect(convertUsd(1, 'eth', fx, { eth: undefined, btc: 60_000 })).toBeUndefined();
    expect(isCurrency('usd') && isCurrency('try') && isCurrency('btc')).toBe(true);
    expect(isCurrency('USD') || isCurrency('xau') || isCurrency('')).toBe(false);
  });

  test('refuses a table that lacks a currency, naming it', async () => {
    const { writeFile, mkdtemp, rm } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = await mkdtemp(join(tmpdir(), 'fx-'));
    try {
      const { chf: _chf, ...rates } = fx.rates;
      await writeFile(join(dir, 'fx.json'), JSON.stringify({ ...fx, rates }));
      await expect(loadFxTable(join(dir, 'fx.json'))).rejects.toThrow('rates.chf');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
