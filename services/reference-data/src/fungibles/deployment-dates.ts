import type { PublicClient } from 'viem';

/** The block in which a contract's code first appears, and that block's time. */
export interface Deployment {
  blockNumber: bigint;
  /** ISO 8601. */
  date: string;
}

export interface DeploymentDates {
  /** When the contract at `address` on `chainId` was created; undefined for no EVM chain or no code at the head. */
  deployment(chainId: string, address: string): Promise<Deployment | undefined>;
}

/** Reads code at a block; a node without that block's state throws, which is told apart from empty code. */
type CodeAt = (address: `0x${string}`, blockNumber: bigint) => Promise<boolean>;

/**
 * The first block in [0, head] at which `hasCode` is true, given it is true at `head`: a binary
 * search, about log2(head) reads. Code can vanish after a SELFDESTRUCT and come back with CREATE2;
 * the search then finds one block where it appears, which is what the chain can tell by state alone.
 */
export async function firstBlockWithCode(hasCode: (blockNumber: bigint) => Promise<boolean>, head: bigint): Promise<bigint> {
  let low = 0n;
  let high = head;
  while (low < high) {
    const middle = (low + high) / 2n;
    if (await hasCode(middle)) high = middle;
    else low = middle + 1n;
  }
  return low;
}

/**
 * Contract creation times found by a binary search over `eth_getCode` at block numbers, and
 * remembered for the life of the process (a creation never changes; a reorg deep enough to move
 * one is not something a list of fungibles needs to follow). One search per contract at a time.
 */
export function createDeploymentDates(clients: ReadonlyMap<string, PublicClient>): DeploymentDates {
  const found = new Map<string, Promise<Deployment | undefined>>();

  async function search(client: PublicClient, address: `0x${string}`): Promise<Deployment | undefined> {
    const head = await client.getBlockNumber({ cacheTime: 0 });
    const codeAt: CodeAt = async (at, blockNumber) => ((await client.getCode({ address: at, blockNumber })) ?? '0x') !== '0x';
    if (!(await codeAt(address, head))) return undefined;
    const blockNumber = await firstBlockWithCode((number) => codeAt(address, number), head);
    const block = await client.getBlock({ blockNumber });
    return { blockNumber, date: new Date(Number(block.timestamp) * 1000).toISOString() };
  }

  return {
    deployment(chainId, address) {
      const client = clients.get(chainId);
      if (!client || !/^0x[0-9a-fA-F]{40}$/.test(address)) return Promise.resolve(undefined);
      const key = `${chainId}:${address.toLowerCase()}`;
      let pending = found.get(key);
      if (!pending) {
        pending = search(client, address.toLowerCase() as `0x${string}`);
        found.set(key, pending);
        // A failed read is not remembered: the next request searches again. Nor is "no code yet".
        pending.then(
          (deployment) => {
            if (!deployment) found.delete(key);
          },
          () => found.delete(key),
        );
      }
      return pending;
    },
  };
}
