import { readFile } from 'node:fs/promises';
import { address as solanaAddress, createSolanaRpc } from '@solana/kit';
import { createPublicClient, http, parseAbi, type Address, type PublicClient } from 'viem';
import type { Manifest } from '../../../devnet/src/manifest/index.js';
import { loadChainsConfig } from '../../reference-data/src/chains/chain-config.js';

// What spec 2.2 `fungible_info` of a token seen on a wallet endpoint should say, from the curated
// registries (the shipped file and the devnet's, merged as a deployment merges them) and from the
// chains themselves: which implementations exist and their decimals, supplies read with viem (and
// on Solana chains with getTokenSupply through @solana/kit).

const chainsFile = new URL('../../reference-data/config/chains.json', import.meta.url).pathname;
const registryFiles = [
  new URL('../../reference-data/config/registry.json', import.meta.url).pathname,
  new URL('../../../.data/devnet/registry.json', import.meta.url).pathname,
];
const erc20 = parseAbi([
  'function decimals() view returns (uint8)',
  'function totalSupply() view returns (uint256)',
  'function balanceOf(address) view returns (uint256)',
]);

interface Reference {
  chain_id: string;
  address: string;
}

interface RegistryToken {
  fungible_id: string;
  asset_class?: string;
  implementations: Reference[];
  non_circulating_holders: Reference[];
}

export interface ExpectedFungible {
  /** Known for the registry's tokens and native assets; other tokens' ids are opaque hashes. */
  id: string | undefined;
  verified: boolean;
  /** On the registry's spam list. */
  spam: boolean;
  implementations: { chain_id: string; decimals: number; address: string | null }[];
  /** The registry's class, served to organizations with the classification add-on only. */
  assetClass: string | undefined;
  /** Whole tokens: every implementation's totalSupply() over 10^decimals, summed; null for a native asset. */
  totalSupply: number | null;
  /** Total less the registry's non-circulating holders' balances. */
  circulatingSupply: number | null;
}

export interface FungibleTruth {
  /** The token at `address` ('' for the native asset) on `chainId`, read from the chains now. */
  expected(chainId: string, address: string): Promise<ExpectedFungible>;
  /** The registry's asset class of the token, if it has one. */
  assetClass(chainId: string, address: string): string | undefined;
}

/** EVM addresses compare lowercase; Solana ones are base58, whose case matters. */
const lower = (reference: Reference): Reference => ({
  chain_id: reference.chain_id,
  address: reference.address.startsWith('0x') ? reference.address.toLowerCase() : reference.address,
});
const sameReference = (a: Reference, b: Reference) => a.chain_id === b.chain_id && a.address === b.address;

async function mergedRegistry(): Promise<{ tokens: RegistryToken[]; spam: Set<string> }> {
  const tokens = new Map<string, RegistryToken>();
  const spam = new Set<string>();
  for (const file of registryFiles) {
    const registry = JSON.parse(await readFile(file, 'utf8')) as {
      tokens: { fungible_id: string; asset_class?: string; implementations: Reference[]; non_circulating_holders?: Reference[] }[];
      spam_tokens?: Record<string, string[]>;
    };
    for (const token of registry.tokens) {
      const earlier = tokens.get(token.fungible_id);
      const implementations = [...(earlier?.implementations ?? [])];
      for (const reference of token.implementations.map(lower))
        if (!implementations.some((known) => sameReference(known, reference))) implementations.push(reference);
      const holders = [...(earlier?.non_circulating_holders ?? [])];
      for (const reference of (token.non_circulating_holders ?? []).map(lower))
        if (!holders.some((known) => sameReference(known, reference))) holders.push(reference);
      const assetClass = token.asset_class ?? earlier?.asset_class;
      tokens.set(token.fungible_id, {
        fungible_id: token.fungible_id,
        ...(assetClass ? { asset_class: assetClass } : {}),
        implementations,
        non_circulating_holders: holders,
      });
    }
    for (const [chainId, addresses] of Object.entries(registry.spam_tokens ?? {}))
      for (const address of addresses) spam.add(`${chainId}:${lower({ chain_id: chainId, address }).address}`);
  }
  return { tokens: [...tokens.values()], spam };
}

export async function loadFungibleTruth(manifest: Manifest): Promise<FungibleTruth> {
  const chains = await loadChainsConfig(chainsFile, {});
  const { tokens, spam } = await mergedRegistry();
  const clients = new Map<string, PublicClient>(
    manifest.chains.map((chain) => [chain.id, createPublicClient({ transport: http(chain.rpcUrl), cacheTime: 0 }) as PublicClient]),
  );
  const client = (chainId: string) => {
    const found = clients.get(chainId);
    if (!found) throw new Error(`the manifest has no chain ${chainId}`);
    return found;
  };
  const solanaRpcs = new Map((manifest.solana ?? []).map((world) => [world.id, createSolanaRpc(world.rpcUrl)]));
  /** A Solana mint's supply and decimals as the chain has them, undefined where no mint is. */
  const solanaSupply = async (reference: Reference) => {
    try {
      return (await solanaRpcs.get(reference.chain_id)!.getTokenSupply(solanaAddress(reference.address)).send()).value;
    } catch {
      return undefined;
    }
  };
  const networkOf = (chainId: string) => chains.find((chain) => chain.id === chainId)!.network;
  /** A registry address is an implementation only where an ERC-20 answers at it (a mainnet address on a devnet chain is none). */
  const decimalsAt = async (reference: Reference): Promise<number | undefined> => {
    if (solanaRpcs.has(reference.chain_id)) return (await solanaSupply(reference))?.decimals;
    if (!clients.has(reference.chain_id)) return undefined;
    try {
      return await client(reference.chain_id).readContract({ address: reference.address as Address, abi: erc20, functionName: 'decimals' });
    } catch {
      return undefined;
    }
  };
  const whole = (amount: bigint, decimals: number) => Number(amount) / 10 ** decimals;
  const registered = (chainId: string, address: string) =>
    tokens.find((token) => token.implementations.some((reference) => sameReference(reference, { chain_id: chainId, address })));

  return {
    async expected(chainId, address) {
      const network = networkOf(chainId);
      if (address === '') {
        const own = chains.find((chain) => chain.id === chainId)!;
        const carriers = chains.filter((chain) => chain.network === network && chain.native_fungible_id === own.native_fungible_id);
        return {
          id: own.native_fungible_id,
          verified: true,
          spam: false,
          implementations: carriers.map((chain) => ({ chain_id: chain.id, decimals: chain.native.decimals, address: null })),
          assetClass: undefined,
          totalSupply: null,
          circulatingSupply: null,
        };
      }
      const entry = registered(chainId, address);
      const candidates = entry
        ? entry.implementations.filter((reference) => chains.some((chain) => chain.id === reference.chain_id && chain.network === network))
        : [{ chain_id: chainId, address }];
      const implementations: { reference: Reference; decimals: number }[] = [];
      for (const reference of candidates) {
        const decimals = await decimalsAt(reference);
        if (decimals !== undefined) implementations.push({ reference, decimals });
      }
      let total = 0;
      for (const { reference, decimals } of implementations) {
        if (solanaRpcs.has(reference.chain_id)) {
          total += whole(BigInt((await solanaSupply(reference))!.amount), decimals);
          continue;
        }
        total += whole(
          await client(reference.chain_id).readContract({ address: reference.address as Address, abi: erc20, functionName: 'totalSupply' }),
          decimals,
        );
      }
      let held = 0;
      for (const holder of entry?.non_circulating_holders ?? []) {
        for (const { reference, decimals } of implementations.filter((implementation) => implementation.reference.chain_id === holder.chain_id)) {
          held += whole(
            await client(reference.chain_id).readContract({
              address: reference.address as Address,
              abi: erc20,
              functionName: 'balanceOf',
              args: [holder.address as Address],
            }),
            decimals,
          );
        }
      }
      return {
        id: entry?.fungible_id,
        verified: entry !== undefined,
        spam: spam.has(`${chainId}:${address}`),
        implementations: implementations.map(({ reference, decimals }) => ({ chain_id: reference.chain_id, decimals, address: reference.address })),
        assetClass: entry?.asset_class,
        totalSupply: total,
        circulatingSupply: total - held,
      };
    },
    assetClass: (chainId, address) => (address === '' ? undefined : registered(chainId, address)?.asset_class),
  };
}
