import { decodeAbiParameters, encodeFunctionData, parseAbi, size, type Address, type Hex, type PublicClient } from 'viem';
import { isRevert } from '../tokens/rpc-errors.js';
import type { OnChainKind } from './address-kind.js';

const abi = parseAbi([
  'function getOwners() view returns (address[])',
  'function getThreshold() view returns (uint256)',
  'function threshold() view returns (uint256)',
  'function entryPoint() view returns (address)',
]);
const calls = {
  getOwners: encodeFunctionData({ abi, functionName: 'getOwners' }),
  getThreshold: encodeFunctionData({ abi, functionName: 'getThreshold' }),
  threshold: encodeFunctionData({ abi, functionName: 'threshold' }),
  entryPoint: encodeFunctionData({ abi, functionName: 'entryPoint' }),
};

// EIP-7702: an EOA that delegates to a contract carries 0xef0100 || address as its code; it is
// still a key-controlled account.
const delegationPrefix = '0xef0100';

/** Reads what an address is on one chain. */
export interface AddressProber {
  probe(address: Address): Promise<OnChainKind>;
}

function decodeOwners(data: Hex | undefined): readonly Address[] {
  if (!data || size(data) < 64) return [];
  try {
    return decodeAbiParameters([{ type: 'address[]' }], data)[0];
  } catch {
    return [];
  }
}

function decodeUint(data: Hex | undefined): bigint | undefined {
  return data && size(data) === 32 ? BigInt(data) : undefined;
}

export function createAddressProber(client: PublicClient): AddressProber {
  async function call(to: Address, data: Hex): Promise<Hex | undefined> {
    try {
      return (await client.call({ to, data })).data;
    } catch (error) {
      if (isRevert(error)) return undefined;
      throw error;
    }
  }
  return {
    async probe(address) {
      const code = (await client.getCode({ address })) ?? '0x';
      if (code === '0x') return 'none';
      if (code.toLowerCase().startsWith(delegationPrefix) && size(code) === 23) return 'none';
      const [owners, getThreshold, threshold, entryPoint] = await Promise.all([
        call(address, calls.getOwners),
        call(address, calls.getThreshold),
        call(address, calls.threshold),
        call(address, calls.entryPoint),
      ]);
      // Safe answers getThreshold(); Safe-style multisigs that expose the field directly answer threshold().
      const ownerCount = BigInt(decodeOwners(owners).length);
      const required = decodeUint(getThreshold) ?? decodeUint(threshold);
      if (ownerCount > 0n && required !== undefined && required >= 1n && required <= ownerCount) return 'safe';
      const entry = decodeUint(entryPoint);
      // ERC-4337 accounts name the EntryPoint they trust; the 12 high bytes of an ABI address are zero.
      if (entry !== undefined && entry !== 0n && entry < 1n << 160n) return 'smart-account';
      return 'contract';
    },
  };
}
