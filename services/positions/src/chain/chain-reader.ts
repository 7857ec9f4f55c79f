import { multicall3Address } from '@wallet-api/core/evm';
import {
  decodeFunctionResult,
  encodeFunctionData,
  hexToBigInt,
  multicall3Abi,
  numberToHex,
  parseAbi,
  RpcRequestError,
  type Abi,
  type Address,
  type Hash,
  type Hex,
  type PublicClient,
} from 'viem';

/** A wallet's holding of one asset: `asset` is the token contract, or '' for the chain's native asset. */
export interface HoldingQuery {
  wallet: Address;
  asset: Address | '';
}

export interface ChainReader {
  /** The chain's newest block. */
  latestBlock(): Promise<{ number: bigint; timestamp: bigint }>;
  /** A block by hash; fails when the node does not know it. */
  blockAt(hash: Hash): Promise<{ number: bigint; timestamp: bigint }>;
  /**
   * Balances after the block with this hash (EIP-1898, so the read is pinned to that block's
   * branch): eth_getBalance, and balanceOf through Multicall3's aggregate3 where it existed at
   * `blockNumber` (a few hundred per eth_call), else by one eth_call each; sent in JSON-RPC
   * batches a wave at a time. Fails when the node cannot answer (down, or the block unknown to
   * it). `undefined` where a token contract answered nothing usable (it reverted or returned a
   * short result); a token without code at that block holds nothing (0).
   */
  balancesAt(hash: Hash, holdings: readonly HoldingQuery[], blockNumber?: bigint): Promise<(bigint | undefined)[]>;
  /**
   * viem's multicall contract: Multicall3's aggregate3, or, where the chain has none (a fresh
   * anvil), the same calls as plain eth_calls sent together in JSON-RPC batches (the client's
   * transport batches them). Pass `blockNumber` so that every read of one refresh sees the same state.
   */
  multicall: PublicClient['multicall'];
  /**
   * The first block at which the contract has code (contracts are created once: code at a block
   * means code at every later one), undefined while it has none at the newest block.
   */
  createdAt(address: Address): Promise<bigint | undefined>;
}

type MulticallParameters = Parameters<PublicClient['multicall']>[0];

const balanceOfAbi = parseAbi(['function balanceOf(address owner) view returns (uint256)']);

/**
 * The node ran the call and the contract failed (geth and anvil answer code 3 for a revert, and
 * name what stopped the EVM): the token's own answer, unlike a node that is down or lacks the block.
 */
function contractFailed(error: unknown): boolean {
  const request =
    error instanceof RpcRequestError
      ? error
      : (error as { walk?: (match: (cause: unknown) => boolean) => unknown })?.walk?.((cause) => cause instanceof RpcRequestError);
  if (!(request instanceof RpcRequestError)) return false;
  return request.code === 3 || /execution reverted|out of gas|invalid opcode|stack (underflow|overflow)/i.test(request.details);
}

interface ContractCall {
  address: Address;
  abi: Abi;
  functionName: string;
  args?: readonly unknown[];
}

/** A call that failed: its contract reverted, answered nothing, or answered what its ABI cannot decode. */
export class ContractCallFailed extends Error {
  constructor(readonly call: Pick<ContractCall, 'address' | 'functionName'>) {
    super(`${call.functionName} on ${call.address} failed`);
    this.name = 'ContractCallFailed';
  }
}

/**
 * Calldata per eth_call to Multicall3: a few hundred calls, so a wallet's probes take a few
 * eth_calls instead of viem's one per KiB, while a chunk of heavy calls (30k gas each) stays far
 * under the gas nodes allow an eth_call (geth's default cap is 50M).
 */
const aggregateChunkBytes = 16 * 1024;

/**
 * A balance read goes to the node in waves, the next when this one is answered: at most this many
 * JSON-RPC requests and about this many bytes of calldata each. A block that brings thousands of
 * new wallets (an airdrop, a batch payout) must not send tens of thousands of calls, or megabytes
 * of Multicall3 calldata, in one go: a node times them out all together (and the read never ends)
 * or refuses the body.
 */
const balanceWave = { requests: 200, bytes: 512 * 1024 };

/** Calls in consecutive groups of at most `aggregateChunkBytes` of calldata. */
function chunked<T extends { callData: Hex }>(calls: readonly T[]): T[][] {
  const chunks: T[][] = [];
  let size = Infinity;
  for (const call of calls) {
    const bytes = (call.callData.length - 2) / 2 + 32;
    if (size + bytes > aggregateChunkBytes) {
      chunks.push([]);
      size = 0;
    }
    chunks.at(-1)!.push(call);
    size += bytes;
  }
  return chunks;
}

/**
 * Reads for the adapters. Deployless multicall is not used: its results come back as the code
 * of a contract under construction, which EIP-170 caps at 24 KiB, and a wallet's positions and
 * ticks exceed that.
 */
export function createChainReader(client: PublicClient): ChainReader {
  const creations = new Map<string, Promise<bigint | undefined>>();

  const hasCode = async (address: Address, blockNumber: bigint) => {
    const code = await client.getCode({ address, blockNumber });
    return code !== undefined && code !== '0x';
  };

  /** Binary search over block numbers: about 20 eth_getCode for a chain of a million blocks, once per contract. */
  async function findCreation(address: Address): Promise<bigint | undefined> {
    const head = (await client.getBlock({ blockTag: 'latest' })).number;
    if (!(await hasCode(address, head))) return undefined;
    let low = 0n;
    let high = head;
    while (low < high) {
      const middle = (low + high) / 2n;
      if (await hasCode(address, middle)) high = middle;
      else low = middle + 1n;
    }
    return low;
  }

  function createdAt(address: Address): Promise<bigint | undefined> {
    const key = address.toLowerCase();
    let found = creations.get(key);
    if (!found) {
      found = findCreation(address);
      creations.set(key, found);
      // Neither is final: a failure is asked again next time, "no code yet" a minute later (a chain
      // without Multicall3 is asked about it by every read).
      found.then(
        (block) => {
          if (block === undefined) setTimeout(() => creations.delete(key), 60_000).unref();
        },
        () => creations.delete(key),
      );
    }
    return found;
  }

  /** Multicall3 answers a read at this block: it had been deployed by then (the newest block when none is given). */
  async function multicall3At(blockNumber: bigint | undefined): Promise<boolean> {
    const created = await createdAt(multicall3Address);
    return created !== undefined && (blockNumber === undefined || blockNumber >= created);
  }

  async function batchedReads({ contracts, allowFailure = true, blockNumber, blockTag }: MulticallParameters) {
    const settled = await Promise.allSettled(
      contracts.map((contract) => client.readContract({ ...(contract as Parameters<PublicClient['readContract']>[0]), blockNumber, blockTag } as never)),
    );
    if (!allowFailure) {
      const failed = settled.find((outcome) => outcome.status === 'rejected');
      if (failed) throw failed.reason;
      return settled.map((outcome) => (outcome as PromiseFulfilledResult<unknown>).value);
    }
    return settled.map((outcome) =>
      outcome.status === 'fulfilled' ? { status: 'success', result: outcome.value } : { status: 'failure', error: outcome.reason },
    );
  }

  /**
   * Multicall3's aggregate3 with every call allowed to fail, decoded here: viem's multicall builds
   * a full error object (message, ABI lookup, pretty-printed call) for each failed call, and a
   * wallet's first read probes every token it holds, most of which fail the probe.
   */
  async function aggregate3({ contracts, allowFailure = true, blockNumber, blockTag }: MulticallParameters) {
    const calls = (contracts as readonly ContractCall[]).map((contract) => ({
      contract,
      callData: encodeFunctionData({ abi: contract.abi, functionName: contract.functionName, args: contract.args } as never),
    }));
    const block = blockNumber !== undefined ? numberToHex(blockNumber) : (blockTag ?? 'latest');
    const answers = await Promise.all(
      chunked(calls).map(async (chunk) => {
        const data = encodeFunctionData({
          abi: multicall3Abi,
          functionName: 'aggregate3',
          args: [chunk.map(({ contract, callData }) => ({ target: contract.address, allowFailure: true, callData }))],
        });
        const returned = await client.request({ method: 'eth_call', params: [{ to: multicall3Address, data }, block] });
        return decodeFunctionResult({ abi: multicall3Abi, functionName: 'aggregate3', data: returned });
      }),
    );
    const results = answers.flat().map(({ success, returnData }, index) => {
      const { contract } = calls[index]!;
      if (!success || returnData === '0x') return { status: 'failure' as const, error: new ContractCallFailed(contract) };
      try {
        return {
          status: 'success' as const,
          result: decodeFunctionResult({ abi: contract.abi, functionName: contract.functionName, data: returnData } as never) as unknown,
        };
      } catch {
        return { status: 'failure' as const, error: new ContractCallFailed(contract) };
      }
    });
    if (allowFailure) return results;
    const failed = results.find((result) => result.status === 'failure');
    if (failed) throw failed.error;
    return results.map((result) => (result as { result: unknown }).result);
  }

  /** One eth_call of Multicall3 for these balanceOf reads; a token that answered nothing is asked alone, which tells no code (0) from a useless answer. */
  async function aggregatedBalancesAt(blockHash: Hash, holdings: readonly HoldingQuery[], data: Hex): Promise<(bigint | undefined)[]> {
    const returned = await client.request({ method: 'eth_call', params: [{ to: multicall3Address, data }, { blockHash }] });
    const answers = decodeFunctionResult({ abi: multicall3Abi, functionName: 'aggregate3', data: returned });
    return Promise.all(
      answers.map(({ success, returnData }, index) => {
        if (!success) return undefined;
        if (returnData === '0x') return balanceAt(blockHash, holdings[index]!);
        return returnData.length >= 66 ? hexToBigInt(returnData.slice(0, 66) as Hex) : undefined;
      }),
    );
  }

  async function balancesAt(blockHash: Hash, holdings: readonly HoldingQuery[], blockNumber?: bigint): Promise<(bigint | undefined)[]> {
    const results = new Array<bigint | undefined>(holdings.length);
    const tokens = holdings.flatMap((holding, index) =>
      holding.asset === '' ? [] : [{ holding, index, callData: encodeFunctionData({ abi: balanceOfAbi, functionName: 'balanceOf', args: [holding.wallet] }) }],
    );
    const aggregated = tokens.length > 1 && blockNumber !== undefined && (await multicall3At(blockNumber));
    const requests: { bytes: number; send: () => Promise<void> }[] = [];
    for (const [index, holding] of holdings.entries()) {
      if (holding.asset === '' || !aggregated) requests.push({ bytes: 68, send: async () => void (results[index] = await balanceAt(blockHash, holding)) });
    }
    if (aggregated) {
      for (const chunk of chunked(tokens)) {
        const data = encodeFunctionData({
          abi: multicall3Abi,
          functionName: 'aggregate3',
          args: [chunk.map(({ holding, callData }) => ({ target: holding.asset as Address, allowFailure: true, callData }))],
        });
        const send = async () => {
          const amounts = await aggregatedBalancesAt(
            blockHash,
            chunk.map(({ holding }) => holding),
            data,
          );
          for (const [position, { index }] of chunk.entries()) results[index] = amounts[position];
        };
        requests.push({ bytes: (data.length - 2) / 2, send });
      }
    }
    let wave: (() => Promise<void>)[] = [];
    let waveBytes = 0;
    const flush = async () => {
      await Promise.all(wave.map((send) => send()));
      wave = [];
      waveBytes = 0;
    };
    for (const { bytes, send } of requests) {
      if (wave.length === balanceWave.requests || (wave.length > 0 && waveBytes + bytes > balanceWave.bytes)) await flush();
      wave.push(send);
      waveBytes += bytes;
    }
    await flush();
    return results;
  }

  async function balanceAt(blockHash: Hash, { wallet, asset }: HoldingQuery): Promise<bigint | undefined> {
    const block = { blockHash };
    if (asset === '') return hexToBigInt(await client.request({ method: 'eth_getBalance', params: [wallet, block] }));
    const data = encodeFunctionData({ abi: balanceOfAbi, functionName: 'balanceOf', args: [wallet] });
    let result: Hex;
    try {
      result = await client.request({ method: 'eth_call', params: [{ to: asset, data }, block] });
    } catch (error) {
      if (contractFailed(error)) return undefined;
      throw error;
    }
    // Nothing returned: no contract there at that block (nothing held), or one that answers nothing.
    if (result === '0x') return (await client.request({ method: 'eth_getCode', params: [asset, block] })) === '0x' ? 0n : undefined;
    return result.length >= 66 ? hexToBigInt(result.slice(0, 66) as Hex) : undefined;
  }

  return {
    async latestBlock() {
      const block = await client.getBlock({ blockTag: 'latest' });
      return { number: block.number, timestamp: block.timestamp };
    },
    async blockAt(hash) {
      const block = await client.getBlock({ blockHash: hash });
      return { number: block.number, timestamp: block.timestamp };
    },
    balancesAt,
    multicall: (async (parameters: MulticallParameters) =>
      (await multicall3At(parameters.blockNumber)) ? aggregate3(parameters) : batchedReads(parameters)) as PublicClient['multicall'],
    createdAt,
  };
}
