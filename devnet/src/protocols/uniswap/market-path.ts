import { createHash } from 'node:crypto';

/** One asset's reference price: where the devnet's market maker holds every trusted pool. */
export interface AssetPath {
  symbol: string;
  /** Standard deviation of the daily log return; 0 for an asset pegged at its start price. */
  dailyVolatility: number;
  /** USD price at `start + day * 86400` for each day of the world (index 0 is `start`). */
  daily: number[];
}

/**
 * The devnet market's reference prices: a seeded random walk per asset, a price per day from the
 * world's genesis, the same on every chain because it depends only on the world seed and the
 * asset's symbol. Recorded in the uniswap manifest so tests can compare served prices to it.
 */
export interface MarketPath {
  seed: string;
  /** Unix seconds of day 0. */
  start: number;
  assets: AssetPath[];
}

export interface AssetSpec {
  symbol: string;
  startUsd: number;
  dailyVolatility: number;
}

const daySeconds = 86_400;

/** A standard normal draw from two uniform ones (Box-Muller). */
function normal(uniform1: number, uniform2: number): number {
  return Math.sqrt(-2 * Math.log(1 - uniform1)) * Math.cos(2 * Math.PI * uniform2);
}

/**
 * The log return of `symbol` on `day`: its own seeded draw, so any day is known without the ones
 * before it being drawn in order, and the path goes on the same way in live mode past the world's
 * last day. Drift -sigma^2/2 keeps the expected price flat.
 */
function dailyLogReturn(seed: string, symbol: string, volatility: number, day: number): number {
  if (volatility === 0) return 0;
  // SHA-256 rather than the world's small generator: its seeds of consecutive days are close, and
  // its first draws of close seeds are correlated enough to add a trend (a walk of 450 such days
  // ended 2.7 standard deviations low far more often than chance).
  const digest = createHash('sha256').update(`${seed}/market/${symbol}/${day}`).digest();
  return volatility * normal(digest.readUInt32BE(0) / 2 ** 32, digest.readUInt32BE(4) / 2 ** 32) - (volatility * volatility) / 2;
}

export function createMarketPath(seed: string, start: number, days: number, assets: readonly AssetSpec[]): MarketPath {
  return {
    seed,
    start,
    assets: assets.map((asset) => {
      const daily = [asset.startUsd];
      for (let day = 1; day <= days; day++) daily.push(daily[day - 1]! * Math.exp(dailyLogReturn(seed, asset.symbol, asset.dailyVolatility, day)));
      return { symbol: asset.symbol, dailyVolatility: asset.dailyVolatility, daily };
    }),
  };
}

/** Days drawn past the recorded ones, per path and asset (live mode runs past the world's end). */
const extensions = new WeakMap<MarketPath, Map<string, number[]>>();

function dailyPrice(path: MarketPath, asset: AssetPath, day: number): number {
  if (day <= 0) return asset.daily[0]!;
  if (day < asset.daily.length) return asset.daily[day]!;
  let byAsset = extensions.get(path);
  if (!byAsset) extensions.set(path, (byAsset = new Map()));
  let extended = byAsset.get(asset.symbol);
  if (!extended) byAsset.set(asset.symbol, (extended = [...asset.daily]));
  while (extended.length <= day) {
    const next = extended.length;
    extended.push(extended[next - 1]! * Math.exp(dailyLogReturn(path.seed, asset.symbol, asset.dailyVolatility, next)));
  }
  return extended[day]!;
}

/** The reference USD price of `symbol` at `timestamp` (log-linear between days); undefined for an asset the path does not hold. */
export function referencePrice(path: MarketPath, symbol: string, timestamp: number): number | undefined {
  const asset = path.assets.find((entry) => entry.symbol === symbol);
  if (!asset) return undefined;
  const position = Math.max(0, (timestamp - path.start) / daySeconds);
  const day = Math.floor(position);
  const [from, to] = [dailyPrice(path, asset, day), dailyPrice(path, asset, day + 1)];
  return from * Math.exp((position - day) * Math.log(to / from));
}
