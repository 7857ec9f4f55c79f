import { getAddress, type Address, type PublicClient } from 'viem';
import { entryPointAbi, safeAbi, safeFactoryAbi } from '../protocols/smart-wallets/abi.js';
import type { SmartWalletRecord, SmartWalletsManifest } from '../protocols/smart-wallets/manifest.js';

// Smart-wallet specific state (owners, thresholds, nonces, deployment). Their ETH and token
// balances are read as for any address, with the tokens module's readers.

export type ChainReader = Pick<PublicClient, 'readContract' | 'getCode'>;

export interface SafeState {
  address: Address;
  owners: Address[];
  threshold: number;
  nonce: bigint;
  requireSuccess: boolean;
}

export interface SmartAccountState {
  address: Address;
  owner: Address;
  /** Whether the first user operation has deployed the account yet. */
  deployed: boolean;
  /** Next EntryPoint nonce: the number of user operations it has validated. */
  nonce: bigint;
}

export async function readSafeState(client: ChainReader, safe: Address, blockNumber?: bigint): Promise<SafeState> {
  const contract = { address: safe, abi: safeAbi, ...(blockNumber === undefined ? {} : { blockNumber }) } as const;
  const [owners, threshold, nonce, requireSuccess] = await Promise.all([
    client.readContract({ ...contract, functionName: 'getOwners' }),
    client.readContract({ ...contract, functionName: 'threshold' }),
    client.readContract({ ...contract, functionName: 'nonce' }),
    client.readContract({ ...contract, functionName: 'requireSuccess' }),
  ]);
  return { address: safe, owners: owners.map((owner) => getAddress(owner)), threshold: Number(threshold), nonce, requireSuccess };
}

export async function readSmartAccountState(
  client: ChainReader,
  manifest: SmartWalletsManifest,
  account: Address,
  blockNumber?: bigint,
): Promise<SmartAccountState> {
  const info = manifest.smartAccounts.find((entry) => entry.address === account);
  if (!info) throw new Error(`${account} is not one of the manifest's smart accounts`);
  const at = blockNumber === undefined ? {} : { blockNumber };
  const [code, nonce] = await Promise.all([
    client.getCode({ address: account, ...at }),
    client.readContract({ address: manifest.entryPoint, abi: entryPointAbi, functionName: 'getNonce', args: [account], ...at }),
  ]);
  return { address: account, owner: info.owner, deployed: code !== undefined && code !== '0x', nonce };
}

/** The safe at `index` of the factory's registry, as a manifest record. */
export async function readSafeRecord(client: ChainReader, manifest: SmartWalletsManifest, index: number, blockNumber?: bigint): Promise<SmartWalletRecord> {
  const at = blockNumber === undefined ? {} : { blockNumber };
  const address = getAddress(
    await client.readContract({ address: manifest.safeFactory, abi: safeFactoryAbi, functionName: 'safes', args: [BigInt(index)], ...at }),
  );
  const { owners, threshold, requireSuccess } = await readSafeState(client, address, blockNumber);
  return { kind: 'safe', address, owners, threshold, requireSuccess };
}

export function smartAccountRecords(manifest: SmartWalletsManifest): SmartWalletRecord[] {
  return manifest.smartAccounts.map((account) => ({ kind: 'smart-account', address: account.address, owners: [account.owner], threshold: 1 }));
}

/** Every smart wallet at a block: the smart accounts (deployed or not) and every safe in the factory's registry. */
export async function readSmartWallets(client: ChainReader, manifest: SmartWalletsManifest, blockNumber: bigint): Promise<SmartWalletRecord[]> {
  const count = await client.readContract({ address: manifest.safeFactory, abi: safeFactoryAbi, functionName: 'safeCount', blockNumber });
  const safes = await Promise.all(Array.from({ length: Number(count) }, (_, index) => readSafeRecord(client, manifest, index, blockNumber)));
  return [...smartAccountRecords(manifest), ...safes];
}
