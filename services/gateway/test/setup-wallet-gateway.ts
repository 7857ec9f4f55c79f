import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Redis } from 'ioredis';
import { createPrisma } from '@wallet-api/core/db';
import { Network } from '@wallet-api/core/proto/common';
import type { Chain } from '@wallet-api/core/proto/reference_data';
import { testConfig, testLogger, uniqueName } from '@wallet-api/core/testing';
import { startReferenceDataFixture, type ReferenceDataFixture, type RunningReferenceData } from '../../indexer/test/reference-data-fixture.js';
import { loadChainsConfig } from '../../reference-data/src/chains/chain-config.js';
import { createChainRegistry } from '../../reference-data/src/chains/chain-registry.js';
import { createApp } from '../src/app.js';
import { createOrganizationKey, findOrganizationByKey } from '../src/auth/api-keys.js';
import { createBackends, type Backends } from '../src/grpc/backends.js';

const chainsFile = new URL('../../reference-data/config/chains.json', import.meta.url);

export const publicUrl = 'https://api.wallet.test';

export interface WalletGateway {
  /** Where the gateway listens, e.g. `http://127.0.0.1:41234`. */
  baseUrl: string;
  /** GET with the test organization's key, plus `headers`. */
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  stop(): Promise<void>;
}

/**
 * The gateway over reference-data serving the shipped chains (Solana's among them) plus one the
 * configuration lacks (`legacy`: an EVM chain indexing transactions but not positions), with
 * `untracked` addresses refused, and the positions service at `positionsAddress`.
 */
export async function startWalletGateway(options: { positionsAddress: string; untracked?: ReferenceDataFixture['untracked'] }): Promise<WalletGateway> {
  const registry = createChainRegistry(await loadChainsConfig(chainsFile.pathname, {}));
  const ethereum = registry.get(Network.NETWORK_MAINNET, 'ethereum')!;
  const extraChains: Chain[] = [{ ...ethereum, id: 'legacy', flags: { ...ethereum.flags!, supportsPositions: false } }];
  const referenceData: RunningReferenceData = await startReferenceDataFixture({
    chains: { list: (network) => [...registry.list(network), ...(network === Network.NETWORK_MAINNET ? extraChains : [])] },
    tokens: [],
    dapps: [],
    ...(options.untracked ? { untracked: options.untracked } : {}),
  });
  const prisma = createPrisma(testConfig().DATABASE_URL);
  const redis = new Redis(testConfig().REDIS_URL);
  const backends: Backends = createBackends({ referenceData: referenceData.address, indexer: referenceData.address, positions: options.positionsAddress });
  const app = createApp({
    lookupOrganization: (apiKey) => findOrganizationByKey(prisma, apiKey),
    redis,
    backends,
    publicUrl,
    rateLimits: { perSecond: 1000, burst: 1000 },
    logger: testLogger,
    checkResponses: true,
  });
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { key } = await createOrganizationKey(prisma, { org: uniqueName('org'), roles: [], addons: [] });
  const auth = { Authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` };
  return {
    baseUrl,
    get: (path, headers = {}) => fetch(`${baseUrl}${path}`, { headers: { ...auth, ...headers } }),
    async stop() {
      await new Promise((resolve) => server.close(resolve));
      backends.close();
      await referenceData.stop();
      redis.disconnect();
      await prisma.$disconnect();
    },
  };
}
