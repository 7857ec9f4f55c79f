import { status } from '@grpc/grpc-js';
import { createLogger } from '@wallet-api/core/logger';
import { Network } from '@wallet-api/core/proto/common';
import { AddressKind } from '@wallet-api/core/proto/reference_data';
import { parseRegistryConfig } from '../registry/registry-config.js';
import { createRegistry } from '../registry/registry.js';
import type { ChainConfig } from '../chains/chain-config.js';
import { createAddressClassifier } from './address-classifier.js';
import type { AddressProber } from './address-prober.js';

const wallet = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
const exchange = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
// The same letters but one in another case: another address.
const notExchange = 'EpjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const incinerator = '1nc1nerator11111111111111111111111111111111';

describe('classifying Solana addresses', () => {
  const classifier = createAddressClassifier({
    chains: [],
    registry: createRegistry(
      parseRegistryConfig({ burn_addresses: [incinerator], high_volume_addresses: [{ address: exchange, name: 'Exchange hot wallet' }] }, 'test'),
    ),
    probers: new Map(),
    logger: createLogger('test', 'silent'),
  });

  test.each([
    ['a wallet is a tracked EOA, as written', ` ${wallet} `, { address: wallet, kind: AddressKind.ADDRESS_KIND_EOA, tracked: true, reason: '' }],
    [
      'a listed high-volume wallet is untracked',
      exchange,
      { address: exchange, kind: AddressKind.ADDRESS_KIND_HIGH_VOLUME, tracked: false, reason: expect.stringContaining('Exchange hot wallet') },
    ],
    [
      'an address differing from it only in case is not it',
      notExchange,
      { address: notExchange, kind: AddressKind.ADDRESS_KIND_EOA, tracked: true, reason: '' },
    ],
    [
      'a configured burn address is untracked',
      incinerator,
      { address: incinerator, kind: AddressKind.ADDRESS_KIND_BURN, tracked: false, reason: expect.stringContaining('burn address') },
    ],
  ])('%s', async (_name, address, expected) => {
    expect(await classifier.classify(address, Network.NETWORK_MAINNET)).toEqual(expected);
  });

  test('an address of neither family is refused', async () => {
    await expect(classifier.classify(wallet.toLowerCase(), Network.NETWORK_MAINNET)).rejects.toMatchObject({ code: status.INVALID_ARGUMENT });
  });
});

describe('classifying EVM addresses: verdicts kept', () => {
  const eoa = '0x00000000000000000000000000000000000000e0';
  const contract = '0x00000000000000000000000000000000000000c0';
  const chains = ['ethereum', 'base'].map((id) => ({ id, network: 'mainnet', family: 'evm' }) as ChainConfig);

  function counted(eoaTtlMs: number) {
    const probes: string[] = [];
    const prober = (chainId: string): AddressProber => ({
      async probe(address) {
        probes.push(`${chainId}:${address}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        return address === contract ? 'contract' : 'none';
      },
    });
    const classifier = createAddressClassifier({
      chains,
      registry: createRegistry(parseRegistryConfig({}, 'test')),
      probers: new Map(chains.map((chain) => [chain.id, prober(chain.id)])),
      logger: createLogger('test', 'silent'),
      eoaTtlMs,
    });
    return { classifier, probes };
  }

  test('an EOA is read once on every chain, concurrent callers sharing the read, and kept for the TTL', async () => {
    const { classifier, probes } = counted(60_000);
    const verdicts = await Promise.all([classifier.classify(eoa, Network.NETWORK_MAINNET), classifier.classify(eoa, Network.NETWORK_MAINNET)]);
    expect(verdicts.map((verdict) => verdict.kind)).toEqual([AddressKind.ADDRESS_KIND_EOA, AddressKind.ADDRESS_KIND_EOA]);
    await classifier.classify(eoa.toUpperCase().replace('0X', '0x'), Network.NETWORK_MAINNET);
    expect(probes).toEqual([`ethereum:${eoa}`, `base:${eoa}`]);
  });

  test('an EOA verdict is read again after its TTL; a contract verdict never is', async () => {
    const { classifier, probes } = counted(20);
    await classifier.classify(eoa, Network.NETWORK_MAINNET);
    expect((await classifier.classify(contract, Network.NETWORK_MAINNET)).tracked).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 40));
    await classifier.classify(eoa, Network.NETWORK_MAINNET);
    await classifier.classify(contract, Network.NETWORK_MAINNET);
    expect(probes.filter((probe) => probe.endsWith(eoa))).toHaveLength(4);
    expect(probes.filter((probe) => probe.endsWith(contract))).toHaveLength(2);
  });

  test('a failed read is not kept', async () => {
    let failing = true;
    const classifier = createAddressClassifier({
      chains,
      registry: createRegistry(parseRegistryConfig({}, 'test')),
      probers: new Map(chains.map((chain) => [chain.id, { probe: async () => (failing ? Promise.reject(new Error('node down')) : 'none') } as AddressProber])),
      logger: createLogger('test', 'silent'),
    });
    await expect(classifier.classify(eoa, Network.NETWORK_MAINNET)).rejects.toMatchObject({ code: status.UNAVAILABLE });
    failing = false;
    expect((await classifier.classify(eoa, Network.NETWORK_MAINNET)).kind).toBe(AddressKind.ADDRESS_KIND_EOA);
  });
});
