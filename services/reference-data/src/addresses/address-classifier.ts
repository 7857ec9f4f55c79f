import { isBuiltInBurnAddress, isSolanaAddress } from '@wallet-api/core/addresses';
import { invalidArgument, unavailable } from '@wallet-api/core/grpc';
import { rpcFailure } from '../tokens/rpc-errors.js';
import type { Logger } from '@wallet-api/core/logger';
import { Network } from '@wallet-api/core/proto/common';
import { AddressKind, type AddressClassification } from '@wallet-api/core/proto/reference_data';
import type { Address } from 'viem';
import type { ChainConfig } from '../chains/chain-config.js';
import type { Registry } from '../registry/registry.js';
import { burnClassification, classifyFromChains, highVolumeClassification } from './address-kind.js';
import type { AddressProber } from './address-prober.js';

export interface AddressClassifier {
  classify(address: string, network: Network): Promise<AddressClassification>;
}

export interface AddressClassifierOptions {
  chains: readonly ChainConfig[];
  registry: Registry;
  /** One prober per EVM chain id. */
  probers: ReadonlyMap<string, AddressProber>;
  logger: Logger;
  /**
   * An EOA may receive code later (a counterfactual wallet being deployed), so its verdict expires;
   * a contract's never does. An hour: the indexer classifies every address of every block it
   * reads, and a wallet's first API request, minutes later, should find that verdict rather than
   * read code on every chain again (its consumers keep theirs longer: subscriptions a day).
   */
  eoaTtlMs?: number;
  /** Verdicts kept, the least recently used dropped first. */
  cacheSize?: number;
}

const evmAddress = /^0x[0-9a-fA-F]{40}$/;

export function createAddressClassifier(options: AddressClassifierOptions): AddressClassifier {
  const { registry, probers } = options;
  const eoaTtlMs = options.eoaTtlMs ?? 3_600_000;
  const cacheSize = options.cacheSize ?? 200_000;
  const cache = new Map<string, { classification: AddressClassification; expiresAt: number }>();
  /** Classifications being read: concurrent callers (the indexer and a request) share one. */
  const reading = new Map<string, Promise<AddressClassification>>();

  function evmChainIds(network: Network): string[] {
    const name = network === Network.NETWORK_TESTNET ? 'testnet' : 'mainnet';
    return options.chains.filter((chain) => chain.network === name && chain.family === 'evm').map((chain) => chain.id);
  }

  async function probeEverywhere(address: string, network: Network): Promise<AddressClassification> {
    const kinds = await Promise.all(
      evmChainIds(network).map(async (chainId) => {
        try {
          return await probers.get(chainId)!.probe(address as Address);
        } catch (error) {
          options.logger.warn({ reason: rpcFailure(error), chainId, address }, 'address classification read failed');
          throw unavailable(`chain ${chainId} did not answer while classifying address ${address}; retry later`);
        }
      }),
    );
    return classifyFromChains(address, kinds);
  }

  return {
    async classify(input, network) {
      const trimmed = input.trim();
      if (isSolanaAddress(trimmed)) {
        // A Solana wallet is a tracked EOA unless the registry lists it (case-sensitive, as written).
        if (registry.isConfiguredBurn(trimmed)) return burnClassification(trimmed);
        const listed = registry.highVolumeName(trimmed);
        if (listed) return highVolumeClassification(trimmed, listed);
        return { address: trimmed, kind: AddressKind.ADDRESS_KIND_EOA, tracked: true, reason: '' };
      }
      if (!evmAddress.test(trimmed)) throw invalidArgument(`address ${input} should be a valid EVM or Solana address`);
      const address = trimmed.toLowerCase();
      if (isBuiltInBurnAddress(address) || registry.isConfiguredBurn(address)) return burnClassification(address);
      const highVolume = registry.highVolumeName(address);
      if (highVolume) return highVolumeClassification(address, highVolume);

      const cacheKey = `${network}:${address}`;
      const cached = cache.get(cacheKey);
      if (cached && cached.expiresAt > Date.now()) {
        // Map order is insertion order: moved to the end, it is dropped last.
        cache.delete(cacheKey);
        cache.set(cacheKey, cached);
        return cached.classification;
      }
      const shared = reading.get(cacheKey);
      if (shared) return shared;
      const read = probeEverywhere(address, network).then((classification) => {
        const expiresAt = classification.kind === AddressKind.ADDRESS_KIND_EOA ? Date.now() + eoaTtlMs : Number.POSITIVE_INFINITY;
        cache.delete(cacheKey);
        cache.set(cacheKey, { classification, expiresAt });
        if (cache.size > cacheSize) cache.delete(cache.keys().next().value!);
        return classification;
      });
      reading.set(cacheKey, read);
      try {
        return await read;
      } finally {
        reading.delete(cacheKey);
      }
    },
  };
}
