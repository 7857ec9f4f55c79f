import { readFile } from 'node:fs/promises';
import { z } from 'zod';

export const cryptoCurrencies = ['eth', 'btc'] as const;
export const fiatCurrencies = ['eur', 'krw', 'rub', 'gbp', 'aud', 'cad', 'inr', 'jpy', 'nzd', 'try', 'zar', 'cny', 'chf'] as const;
/** The spec's 16 currencies. */
export const currencies = ['usd', ...cryptoCurrencies, ...fiatCurrencies] as const;

export type Currency = (typeof currencies)[number];
export type FiatCurrency = (typeof fiatCurrencies)[number];

export function isCurrency(value: string): value is Currency {
  return (currencies as readonly string[]).includes(value);
}

const rate = z.number().positive().finite();

/** Units of each fiat currency one US dollar buys, as of one date. */
export const fxTableSchema = z.object({
  as_of: z.iso.date(),
  source: z.string().default(''),
  base: z.literal('usd'),
  rates: z.object(Object.fromEntries(fiatCurrencies.map((currency) => [currency, rate])) as Record<FiatCurrency, typeof rate>),
});

export type FxTable = z.infer<typeof fxTableSchema>;

export async function loadFxTable(path: string): Promise<FxTable> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read FX table ${path}: ${(error as Error).message}`);
  }
  const result = fxTableSchema.safeParse(json);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`invalid FX table ${path}:\n  ${problems.join('\n  ')}`);
  }
  return result.data;
}

/**
 * A USD amount in `currency`: fiat through the FX table, `eth` and `btc` through their USD prices
 * at the same time (undefined when that price is unknown, and then so is the result).
 */
export function convertUsd(usd: number, currency: Currency, fx: FxTable, cryptoUsd: { eth: number | undefined; btc: number | undefined }): number | undefined {
  if (currency === 'usd') return usd;
  if (currency === 'eth' || currency === 'btc') {
    const unit = cryptoUsd[currency];
    return unit === undefined || unit === 0 ? undefined : usd / unit;
  }
  return usd * fx.rates[currency];
}
