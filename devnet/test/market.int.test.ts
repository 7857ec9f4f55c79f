import type { Address } from 'viem';
import { createDevnetClient, type DevnetClient } from '../src/chain/index.js';
import { readManifest, type Manifest } from '../src/manifest/index.js';
import { v2PairAbi, v3PoolAbi } from '../src/protocols/uniswap/abi.js';
import { referencePrice, type UniswapManifest } from '../src/protocols/uniswap/index.js';
import { createRng } from '../src/world/index.js';

// The devnet market of the loaded test world: every trusted pool of every chain is held at the one
// reference path of the manifest, read here from the pools themselves at past blocks.

interface PoolPrice {
  pool: string;
  pair: string;
  /** USD of token0 in token1 units over the reference ratio, minus 1. */
  deviation: number;
  /** The pool's fee band (V2 0.3%, V3 its fee tier). */
  band: number;
}

async function poolPrices(client: DevnetClient, uniswap: UniswapManifest, blockNumber: bigint, timestamp: number): Promise<PoolPrice[]> {
  const tokens = new Map(uniswap.tokens.map((token) => [token.address.toLowerCase(), token]));
  const reference = (token0: Address, token1: Address) => {
    const [a, b] = [tokens.get(token0.toLowerCase())!, tokens.get(token1.toLowerCase())!];
    return {
      ratio: (referencePrice(uniswap.market, a.symbol, timestamp)! / referencePrice(uniswap.market, b.symbol, timestamp)!) * 10 ** (b.decimals - a.decimals),
      pair: `${a.symbol}/${b.symbol}`,
    };
  };
  const v2 = await Promise.all(
    uniswap.v2.pairs.map(async (pair) => {
      const [reserve0, reserve1] = await client.readContract({ address: pair.address, abi: v2PairAbi, functionName: 'getReserves', blockNumber });
      const { ratio, pair: name } = reference(pair.token0, pair.token1);
      return { pool: pair.address, pair: `v2 ${name}`, deviation: Number(reserve1) / Number(reserve0) / ratio - 1, band: 0.003 };
    }),
  );
  const v3 = await Promise.all(
    uniswap.v3.pools
      .filter((pool) => !pool.thin)
      .map(async (pool) => {
        const [sqrtPriceX96] = await client.readContract({ address: pool.address, abi: v3PoolAbi, functionName: 'slot0', blockNumber });
        const sqrt = Number(sqrtPriceX96) / 2 ** 96;
        const { ratio, pair: name } = reference(pool.token0, pool.token1);
        return { pool: pool.address, pair: `v3 ${name} ${pool.fee}`, deviation: (sqrt * sqrt) / ratio - 1, band: pool.fee / 1_000_000 };
      }),
  );
  return [...v2, ...v3];
}

describe('the devnet market', () => {
  let manifest: Manifest;

  beforeAll(async () => {
    manifest = await readManifest();
  });

  const uniswapOf = (chain: Manifest['chains'][number]) => chain.protocols.uniswap as UniswapManifest;

  test('one reference path per asset, the same on every chain, moving like a market', () => {
    const [first, ...others] = manifest.chains.map(uniswapOf);
    for (const other of others) expect(other!.market.assets).toEqual(first!.market.assets);
    for (const asset of first!.market.assets) {
      const returns = asset.daily.slice(1).map((price, day) => Math.log(price / asset.daily[day]!));
      const deviation = Math.sqrt(returns.reduce((sum, value) => sum + value * value, 0) / returns.length);
      if (asset.dailyVolatility === 0) expect(new Set(asset.daily)).toEqual(new Set([1]));
      // The realized daily volatility of 450 draws is within a fifth of the one drawn from.
      else expect(Math.abs(deviation / asset.dailyVolatility - 1)).toBeLessThan(0.2);
    }
  });

  test('after each market block every trusted pool is within its fee band of the path, on every chain', async () => {
    for (const chain of manifest.chains) {
      const client = createDevnetClient(chain.rpcUrl);
      const uniswap = uniswapOf(chain);
      const replaced = new Set(chain.reorgs.flatMap((reorg) => reorg.replacement.map((block) => block.number)));
      const rng = createRng(`market-test/${chain.id}`);
      const heights = Array.from({ length: 40 }, () => rng.int(chain.activityStartBlock + 1, chain.endBlock - 1));
      let checked = 0;
      for (const height of heights) {
        if (replaced.has(height) || replaced.has(height + 1)) continue;
        const [block, next] = await Promise.all([client.getBlock({ blockNumber: BigInt(height) }), client.getBlock({ blockNumber: BigInt(height + 1) })]);
        // The market mines its block one second before the wallets' block.
        if (Number(next.timestamp) !== Number(block.timestamp) + 1 || block.transactions.length === 0) continue;
        const prices = await poolPrices(client, uniswap, block.number, Number(block.timestamp));
        const outside = prices.filter((price) => Math.abs(price.deviation) > price.band + 1e-6);
        expect({ chain: chain.id, block: height, outside }).toEqual({ chain: chain.id, block: height, outside: [] });
        checked++;
      }
      expect(checked).toBeGreaterThan(5);
    }
  });

  test('at the head and at past wallet blocks every trusted pool is within 2% of the path', async () => {
    for (const chain of manifest.chains) {
      const client = createDevnetClient(chain.rpcUrl);
      const rng = createRng(`market-test/wallet-blocks/${chain.id}`);
      // A reorg's empty replacement blocks undo the market's block too, until its next one.
      const replaced = new Set(chain.reorgs.flatMap((reorg) => reorg.replacement.map((block) => block.number)));
      const heights = [chain.endBlock, ...Array.from({ length: 20 }, () => rng.int(chain.activityStartBlock + 10, chain.endBlock))];
      for (const height of heights.filter((candidate) => !replaced.has(candidate))) {
        const block = await client.getBlock({ blockNumber: BigInt(height) });
        const prices = await poolPrices(client, uniswapOf(chain), block.number, Number(block.timestamp));
        const far = prices.filter((price) => Math.abs(price.deviation) > 0.02);
        expect({ chain: chain.id, block: height, far }).toEqual({ chain: chain.id, block: height, far: [] });
      }
    }
  });
});
