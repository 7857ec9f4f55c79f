import { status } from '@grpc/grpc-js';
import { createLogger } from '@wallet-api/core/logger';
import { Network } from '@wallet-api/core/proto/common';
import { AddressKind } from '@wallet-api/core/proto/reference_data';
import { parseRegistryConfig } from '../registry/registry-config.js';
import { createRegistry } from '../registry/registry.js';
import { createAddressClassifier } from './address-classifier.js';

const wallet = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
const exchange = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
// The same letters but one in another case: another address.
const notExchange = 'EpjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const incinerator = '1nc1nerator11111111111111111111111111111111';

describe('classifying Solana addresses', () => {
  const classifier = createAddressClassifier({
    chains: [],
    registry: createRegistry(parseRegistryConfig({ burn_addresses: [incinerator], high_volume_addresses: [{ address: exchange, name: 'Exchange hot wallet' }] }, 'test')),
    probers: new Map(),
    logger: createLogger('test', 'silent'),
  });

  test.each([
    ['a wallet is a tracked EOA, as written', ` ${wallet} `, { address: wallet, kind: AddressKind.ADDRESS_KIND_EOA, tracked: true, reason: '' }],
    ['a listed high-volume wallet is untracked', exchange, { address: exchange, kind: AddressKind.ADDRESS_KIND_HIGH_VOLUME, tracked: false, reason: expect.stringContaining('Exchange hot wallet') }],
    ['an address differing from it only in case is not it', notExchange, { address: notExchange, kind: AddressKind.ADDRESS_KIND_EOA, tracked: true, reason: '' }],
    ['a configured burn address is untracked', incinerator, { address: incinerator, kind: AddressKind.ADDRESS_KIND_BURN, tracked: false, reason: expect.stringContaining('burn address') }],
  ])('%s', async (_name, address, expected) => {
    expect(await classifier.classify(address, Network.NETWORK_MAINNET)).toEqual(expected);
  });

  test('an address of neither family is refused', async () => {
    await expect(classifier.classify(wallet.toLowerCase(), Network.NETWORK_MAINNET)).rejects.toMatchObject({ code: status.INVALID_ARGUMENT });
  });
});
