import {
  createTestClient,
  encodeDeployData,
  formatTransactionReceipt,
  http,
  publicActions,
  toHex,
  type Abi,
  type Address,
  type Hash,
  type Hex,
  type TransactionReceipt,
} from 'viem';
import type { Artifact } from '../compile/index.js';

export interface TxRequest {
  from: Address;
  to?: Address;
  data?: Hex;
  value?: bigint;
  /** Explicit so that transactions depending on others in the same block need no estimate. */
  gas?: bigint;
}

export interface MinedBlock {
  number: bigint;
  hash: Hash;
  timestamp: number;
  receipts: Map<Hash, TransactionReceipt>;
}

export type DevnetClient = ReturnType<typeof createDevnetClient>;

export function createDevnetClient(rpcUrl: string) {
  // cacheTime 0: viem otherwise caches the block number, and the world moves block by block.
  return createTestClient({ mode: 'anvil', transport: http(rpcUrl, { batch: true, timeout: 60_000 }), cacheTime: 0 }).extend(publicActions);
}

/**
 * One chain under construction. Transactions are sent from any address (anvil's auto-impersonate)
 * with nonces counted here, so many senders can queue in one block without estimates, and
 * `mine` seals them at a chosen timestamp and checks every one was included.
 */
export interface ChainSession {
  readonly client: DevnetClient;
  readonly chainId: number;
  send(request: TxRequest): Promise<Hash>;
  mine(timestamp: number): Promise<MinedBlock>;
  /** Sends and mines at once (deployments and setup), failing on a revert. */
  sendAndMine(request: TxRequest, timestamp: number): Promise<TransactionReceipt>;
  deploy(artifact: Artifact, args: readonly unknown[], from: Address, timestamp: number, value?: bigint): Promise<Address>;
  /** Timestamp of the latest mined block. */
  latestTimestamp(): Promise<number>;
  setBalance(address: Address, wei: bigint): Promise<void>;
  /** Forgets counted nonces, after a reorg dropped transactions. */
  resetNonces(): void;
}

export const defaultGas = 1_500_000n;

export async function createChainSession(rpcUrl: string): Promise<ChainSession> {
  const client = createDevnetClient(rpcUrl);
  const chainId = await client.getChainId();
  await client.setAutomine(false);
  await client.request({ method: 'anvil_autoImpersonateAccount' as never, params: [true] as never });
  const nonces = new Map<Address, number>();
  let pending: Hash[] = [];

  async function nextNonce(address: Address): Promise<number> {
    const key = address.toLowerCase() as Address;
    let nonce = nonces.get(key);
    if (nonce === undefined) nonce = await client.getTransactionCount({ address, blockTag: 'pending' });
    nonces.set(key, nonce + 1);
    return nonce;
  }

  const session: ChainSession = {
    client,
    chainId,
    async send(request) {
      const nonce = await nextNonce(request.from);
      const hash = (await client.request({
        method: 'eth_sendTransaction',
        params: [
          {
            from: request.from,
            ...(request.to ? { to: request.to } : {}),
            data: request.data ?? '0x',
            value: toHex(request.value ?? 0n),
            gas: toHex(request.gas ?? defaultGas),
            nonce: toHex(nonce),
          },
        ],
      } as never)) as Hash;
      pending.push(hash);
      return hash;
    },
    async mine(timestamp) {
      await client.setNextBlockTimestamp({ timestamp: BigInt(timestamp) });
      await client.mine({ blocks: 1 });
      const block = await client.getBlock({ blockTag: 'latest' });
      const receipts = new Map<Hash, TransactionReceipt>();
      const raw = (await client.request({ method: 'eth_getBlockReceipts' as never, params: [toHex(block.number)] as never })) as never[];
      for (const receipt of raw.map((entry) => formatTransactionReceipt(entry))) receipts.set(receipt.transactionHash, receipt);
      const missing = pending.filter((hash) => !receipts.has(hash));
      pending = [];
      if (missing.length > 0) throw new Error(`block ${block.number} left ${missing.length} transactions pending, e.g. ${missing[0]}`);
      return { number: block.number, hash: block.hash!, timestamp: Number(block.timestamp), receipts };
    },
    async sendAndMine(request, timestamp) {
      const hash = await session.send(request);
      const block = await session.mine(timestamp);
      const receipt = block.receipts.get(hash)!;
      if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`);
      return receipt;
    },
    async deploy(artifact, args, from, timestamp, value) {
      const data = encodeDeployData({ abi: artifact.abi as Abi, bytecode: artifact.bytecode, args: args as unknown[] });
      const receipt = await session.sendAndMine({ from, data, gas: 15_000_000n, ...(value ? { value } : {}) }, timestamp);
      if (!receipt.contractAddress) throw new Error(`deploying ${artifact.contractName} created no contract`);
      return receipt.contractAddress;
    },
    async latestTimestamp() {
      return Number((await client.getBlock({ blockTag: 'latest' })).timestamp);
    },
    async setBalance(address, wei) {
      await client.setBalance({ address, value: wei });
    },
    resetNonces() {
      nonces.clear();
    },
  };
  return session;
}
