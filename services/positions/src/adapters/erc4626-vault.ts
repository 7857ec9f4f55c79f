import { parseAbi, type Address } from 'viem';
import type { ProtocolAdapter } from './protocol-adapter.js';
import type { ProtocolPosition } from './protocol-position.js';

const vaultAbi = parseAbi([
  'function balanceOf(address owner) view returns (uint256)',
  'function asset() view returns (address)',
  'function convertToAssets(uint256 shares) view returns (uint256)',
]);

const lower = (address: string) => address.toLowerCase() as Address;

/**
 * ERC-4626 vault shares the wallet holds, as the assets they redeem for (the vault's own
 * convertToAssets, rounding down), with the share token as receipt.
 */
export function createErc4626VaultAdapter(vaults: readonly string[]): ProtocolAdapter {
  const addresses = vaults.map(lower);
  return {
    async read({ reader, wallet, blockNumber }) {
      const read = { blockNumber, allowFailure: false } as const;
      const shares = await reader.multicall({
        ...read,
        contracts: addresses.map((vault) => ({ address: vault, abi: vaultAbi, functionName: 'balanceOf', args: [wallet] }) as const),
      });
      const held = addresses.map((vault, index) => ({ vault, shares: shares[index]! })).filter((entry) => entry.shares > 0n);
      if (held.length === 0) return [];
      const [assets, amounts] = await Promise.all([
        reader.multicall({ ...read, contracts: held.map(({ vault }) => ({ address: vault, abi: vaultAbi, functionName: 'asset' }) as const) }),
        reader.multicall({
          ...read,
          contracts: held.map(({ vault, shares }) => ({ address: vault, abi: vaultAbi, functionName: 'convertToAssets', args: [shares] }) as const),
        }),
      ]);
      return held.map(
        ({ vault, shares }, index): ProtocolPosition => ({
          protocol: 'erc4626',
          type: 'deposit',
          token: lower(assets[index]!),
          amount: amounts[index]!,
          key: vault,
          contract: vault,
          poolAddress: vault,
          group: '',
          parentType: '',
          receipt: { kind: 'fungible', token: vault, amount: shares },
        }),
      );
    },
  };
}
