import { createPublicClient, http, type PublicClient } from 'viem';
import type { ChainWorld, Manifest } from '../../../devnet/src/manifest/index.js';
import { createRng } from '../../../devnet/src/world/index.js';

export { marketAssets, type MarketAsset } from '../../../devnet/src/truth/index.js';

/** A moment to ask prices at (unix seconds, 0 for the newest) and the block time the market priced it at. */
export interface PriceMoment {
  timestamp: number;
  marketTime: number;
}

/**
 * Times (unix seconds) at which any of these chains runs on pools a reorg left unarbitraged: from
 * a reorg's first empty replacement block to the chain's next block, which the market's is.
 */
async function reorgWindows(clients: Map<string, PublicClient>, chains: readonly ChainWorld[]): Promise<[number, number][]> {
  const windows: [number, number][] = [];
  for (const chain of chains) {
    const client = clients.get(chain.id)!;
    for (const reorg of chain.reorgs) {
      const first = reorg.replacement[0]!.number;
      const after = reorg.replacement.at(-1)!.number + 1;
      const [from, to] = await Promise.all([
        client.getBlock({ blockNumber: BigInt(first) }),
        client.getBlock({ blockNumber: BigInt(Math.min(after, chain.endBlock)) }),
      ]);
      windows.push([Number(from.timestamp), Number(to.timestamp)]);
    }
  }
  return windows;
}

/**
 * The newest prices and `count` past moments right after wallet blocks of the first chain (a
 * wallet block follows the market's block by one second), none inside a reorg window of any chain.
 */
export async function priceMoments(chains: readonly ChainWorld[], count: number): Promise<PriceMoment[]> {
  const clients = new Map(chains.map((chain) => [chain.id, createPublicClient({ transport: http(chain.rpcUrl), cacheTime: 0 }) as PublicClient]));
  const [first] = chains;
  const client = clients.get(first!.id)!;
  const windows = await reorgWindows(clients, chains);
  const head = await client.getBlock({ blockNumber: BigInt(first!.endBlock) });
  const moments: PriceMoment[] = [{ timestamp: 0, marketTime: Number(head.timestamp) }];
  const rng = createRng(`one-price/${first!.id}`);
  for (let attempt = 0; attempt < 400 && moments.length <= count; attempt++) {
    const number = rng.int(first!.activityStartBlock + 10, first!.endBlock);
    const [before, block] = await Promise.all([client.getBlock({ blockNumber: BigInt(number - 1) }), client.getBlock({ blockNumber: BigInt(number) })]);
    const time = Number(block.timestamp);
    if (Number(before.timestamp) !== time - 1 || windows.some(([from, to]) => time >= from && time < to)) continue;
    if (moments.some((moment) => moment.timestamp === time)) continue;
    moments.push({ timestamp: time, marketTime: time });
  }
  return moments;
}

/** The world's chains grouped by network, testnets apart. */
export function networksOf(manifest: Manifest, testnets: ReadonlySet<string>): ChainWorld[][] {
  const mainnet = manifest.chains.filter((chain) => !testnets.has(chain.id));
  const testnet = manifest.chains.filter((chain) => testnets.has(chain.id));
  return [mainnet, testnet].filter((chains) => chains.length > 0);
}
