import { decodeFunctionResult, encodeFunctionData, numberToHex, parseAbi, type Hex, type PublicClient } from 'viem';
import type { ChainClients } from '../chain/chain-clients.js';
import type { BlockRef, OpeningHolding, WalletOpening } from '../store/ownership-store.js';
import {
  addressTopic,
  newestReceipts,
  receivedTokens,
  transferBatchTopic,
  transferSingleTopic,
  transferTopic,
  type RawLog,
  type ReceivedToken,
} from './transfer-logs.js';

export interface OpeningReader {
  /**
   * The wallet's NFTs on the chain after the block: every token some Transfer, TransferSingle or
   * TransferBatch log up to it sent to the wallet, asked of the chain at that block (ownerOf,
   * balanceOf) by its hash, so a reorganised block fails the read instead of answering another branch.
   */
  read(chainId: string, wallet: string, at: BlockRef & { timestamp: bigint }): Promise<WalletOpening>;
}

const tokenAbi = parseAbi(['function ownerOf(uint256 tokenId) view returns (address)', 'function balanceOf(address owner, uint256 id) view returns (uint256)']);

/** Reads from a contract that reverts or answers nothing decodable hold nothing. */
class NoAnswer extends Error {}

export function createOpeningReader(options: {
  clients: ChainClients;
  /** Blocks per eth_getLogs; a node that refuses a range gets it in halves. */
  maxLogRange: bigint;
  /** Reads in flight at once. */
  concurrency: number;
}): OpeningReader {
  const { clients, maxLogRange, concurrency } = options;

  async function logs(client: PublicClient, topics: (Hex | Hex[] | null)[], from: bigint, to: bigint): Promise<RawLog[]> {
    if (to - from + 1n > maxLogRange) {
      const middle = from + maxLogRange - 1n;
      return [...(await logs(client, topics, from, middle)), ...(await logs(client, topics, middle + 1n, to))];
    }
    try {
      return (await client.request({
        method: 'eth_getLogs',
        params: [{ fromBlock: numberToHex(from), toBlock: numberToHex(to), topics }],
      })) as unknown as RawLog[];
    } catch (error) {
      // Nodes cap a query's range or result size; halves fit where the whole did not.
      if (to <= from) throw error;
      const middle = (from + to) / 2n;
      return [...(await logs(client, topics, from, middle)), ...(await logs(client, topics, middle + 1n, to))];
    }
  }

  async function callAt(client: PublicClient, blockHash: string, to: string, data: Hex): Promise<Hex> {
    try {
      return (await client.request({ method: 'eth_call', params: [{ to: to as Hex, data }, { blockHash: blockHash as Hex } as never] })) as Hex;
    } catch (error) {
      const message = String((error as Error)?.message ?? error);
      if (/revert|invalid opcode|out of gas/i.test(message)) throw new NoAnswer(message);
      throw error;
    }
  }

  async function amountHeld(client: PublicClient, wallet: string, blockHash: string, token: ReceivedToken): Promise<bigint> {
    try {
      if (token.standard === 'erc721') {
        const data = encodeFunctionData({ abi: tokenAbi, functionName: 'ownerOf', args: [BigInt(token.tokenId)] });
        const owner = decodeFunctionResult({ abi: tokenAbi, functionName: 'ownerOf', data: await callAt(client, blockHash, token.contract, data) });
        return owner.toLowerCase() === wallet ? 1n : 0n;
      }
      const data = encodeFunctionData({ abi: tokenAbi, functionName: 'balanceOf', args: [wallet as Hex, BigInt(token.tokenId)] });
      return decodeFunctionResult({ abi: tokenAbi, functionName: 'balanceOf', data: await callAt(client, blockHash, token.contract, data) });
    } catch (error) {
      if (error instanceof NoAnswer || (error as Error)?.name?.startsWith('AbiDecoding')) return 0n;
      throw error;
    }
  }

  async function inPool<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
    const results: R[] = new Array(items.length);
    let next = 0;
    const worker = async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]!);
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
    return results;
  }

  return {
    async read(chainId, wallet, at) {
      const client = await clients.client(chainId);
      if (!client) throw new Error(`chain ${chainId} has no EVM RPC endpoint`);
      const recipient = addressTopic(wallet);
      const [erc721, erc1155] = await Promise.all([
        logs(client, [transferTopic, null, recipient], 0n, at.number),
        logs(client, [[transferSingleTopic, transferBatchTopic], null, null, recipient], 0n, at.number),
      ]);
      const candidates = newestReceipts([...erc721, ...erc1155].flatMap(receivedTokens));
      const amounts = await inPool(candidates, (token) => amountHeld(client, wallet, at.hash, token));
      const held = candidates.map((token, index) => ({ ...token, amount: amounts[index]! })).filter((token) => token.amount > 0n);
      // When the holding last changed: the newest receipt's block time, asked of the node where the logs did not carry it.
      const timestamps = new Map<bigint, bigint>();
      const untimed = [...new Set(held.filter((token) => token.blockTimestamp === undefined).map((token) => token.blockNumber))];
      await inPool(untimed, async (number) => {
        const block = await client.getBlock({ blockNumber: number });
        timestamps.set(number, block.timestamp);
      });
      const holdings: OpeningHolding[] = held.map((token) => ({
        contract: token.contract,
        tokenId: token.tokenId,
        standard: token.standard,
        amount: token.amount,
        changedAt: token.blockTimestamp ?? timestamps.get(token.blockNumber)!,
      }));
      return { chainId, wallet, blockHash: at.hash, blockNumber: at.number, blockTimestamp: at.timestamp, holdings };
    },
  };
}
