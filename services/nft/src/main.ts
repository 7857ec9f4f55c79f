import { z } from 'zod';
import { connectChangeVersions } from '@wallet-api/core/cache';
import { databaseEnv, kafkaEnv, parseEnv, redisEnv, serviceAddressEnv } from '@wallet-api/core/config';
import { createPrisma } from '@wallet-api/core/db';
import { createGrpcClient } from '@wallet-api/core/grpc';
import { consumerGroup, createKafka, platformTopics } from '@wallet-api/core/kafka';
import { parseAllowList } from '@wallet-api/core/outbound';
import { ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import { createTokenDirectory } from '@wallet-api/core/reference-data';
import { runGrpcService } from '@wallet-api/core/service';
import { createChainClients } from './chain/chain-clients.js';
import { createNftConsumers } from './consume/nft-consumers.js';
import { nftService } from './grpc/nft-service.js';
import { createMarketFollower } from './market/market-follower.js';
import { createMetadataFetcher } from './metadata/metadata-fetcher.js';
import { createMetadataWorker } from './metadata/metadata-worker.js';
import { createOpeningReader } from './ownership/opening-reader.js';
import { createMarketStore } from './store/market-store.js';
import { createOwnershipStore } from './store/ownership-store.js';
import { createTokenStore } from './store/token-store.js';
import { createNftCatalog } from './views/nft-catalog.js';
import { createWalletNfts } from './views/wallet-nfts.js';
import { createWalletIndexing } from './wallets/wallet-indexing.js';

const env = serviceAddressEnv
  .extend(kafkaEnv.shape)
  .extend(databaseEnv.shape)
  .extend(redisEnv.shape)
  .extend({
    NFT_RPC_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
    // Blocks per eth_getLogs of a wallet's first read; nodes that refuse a range get it in halves.
    NFT_LOG_RANGE: z.coerce.bigint().positive().default(1_000_000n),
    NFT_READ_CONCURRENCY: z.coerce.number().int().positive().default(16),
    // Wallets read from the chain at once; more wait (and answer 202 meanwhile).
    NFT_WALLET_READS: z.coerce.number().int().positive().default(4),
    NFT_CACHED_WALLETS: z.coerce.number().int().positive().default(2_000),
    // Metadata: where ipfs:// goes, which private addresses may be fetched (`loopback`, CIDRs, host
    // names; empty allows none), and the limits of one fetch.
    NFT_IPFS_GATEWAY: z.string().url().default('https://ipfs.io/ipfs/'),
    NFT_METADATA_ALLOW_LIST: z.string().default(''),
    NFT_METADATA_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
    NFT_METADATA_MAX_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(1024 * 1024),
    NFT_METADATA_CONCURRENCY: z.coerce.number().int().positive().default(8),
    NFT_METADATA_MAX_ATTEMPTS: z.coerce.number().int().positive().default(6),
    NFT_METADATA_BACKOFF_MS: z.coerce.number().int().positive().default(30_000),
  });

await runGrpcService('nft', parseEnv(serviceAddressEnv).NFT_GRPC_PORT, async ({ logger }) => {
  const config = parseEnv(env);
  const referenceData = createGrpcClient(ReferenceDataClient, config.REFERENCE_DATA_GRPC_ADDRESS);
  const prisma = createPrisma(config.DATABASE_URL, logger);
  const kafka = createKafka({
    brokers: config.KAFKA_BROKERS,
    clientId: config.KAFKA_CLIENT_ID ?? 'nft',
    logger,
    consumerSessionTimeoutMs: config.KAFKA_SESSION_TIMEOUT_MS,
  });
  const changes = connectChangeVersions(config.REDIS_URL, {
    keyPrefix: config.REDIS_KEY_PREFIX,
    onError: (error) => logger.warn({ err: error }, 'redis error'),
  });
  const clients = createChainClients(referenceData, { rpcTimeoutMs: config.NFT_RPC_TIMEOUT_MS });
  const ownership = createOwnershipStore(prisma);
  const tokens = createTokenStore(prisma);
  const market = createMarketStore(prisma);
  const indexing = createWalletIndexing({
    store: ownership,
    tokens,
    reader: createOpeningReader({ clients, maxLogRange: config.NFT_LOG_RANGE, concurrency: config.NFT_READ_CONCURRENCY }),
    clients,
    versions: changes.versions,
    logger,
    concurrency: config.NFT_WALLET_READS,
  });
  const consumers = createNftConsumers({
    kafka,
    ownership,
    tokens,
    indexing,
    market: createMarketFollower({ clients, store: market, logger }),
    versions: changes.versions,
    logger,
    topics: platformTopics(config.KAFKA_TOPIC_SUFFIX),
    groupId: consumerGroup('nft', config.KAFKA_TOPIC_SUFFIX),
  });
  await consumers.start();
  const worker = createMetadataWorker({
    tokens,
    clients,
    fetcher: createMetadataFetcher({
      ipfsGateway: config.NFT_IPFS_GATEWAY,
      allow: parseAllowList(config.NFT_METADATA_ALLOW_LIST, 'NFT_METADATA_ALLOW_LIST'),
      timeoutMs: config.NFT_METADATA_TIMEOUT_MS,
      maxBytes: config.NFT_METADATA_MAX_BYTES,
    }),
    versions: changes.versions,
    logger,
    batchSize: 50,
    concurrency: config.NFT_METADATA_CONCURRENCY,
    idleMs: 2_000,
    backoffMs: config.NFT_METADATA_BACKOFF_MS,
    maxBackoffMs: 6 * 60 * 60_000,
    maxAttempts: config.NFT_METADATA_MAX_ATTEMPTS,
  });
  worker.start();
  const catalog = createNftCatalog({ tokens, market, tokenDirectory: createTokenDirectory(referenceData), referenceData });

  return {
    services: [
      nftService({
        indexing,
        wallets: createWalletNfts({ ownership, catalog, versions: changes.versions, maxWallets: config.NFT_CACHED_WALLETS }),
        catalog,
      }),
    ],
    closers: [
      { name: 'kafka consumers', close: () => consumers.stop() },
      { name: 'metadata worker', close: () => worker.stop() },
      { name: 'wallet reads', close: () => indexing.close() },
      { name: 'postgres', close: () => prisma.$disconnect() },
      { name: 'redis', close: async () => changes.close() },
      { name: 'reference-data client', close: async () => referenceData.close() },
    ],
  };
});
