import { z } from 'zod';
import { connectChangeVersions } from '@wallet-api/core/cache';
import { parseEnv, redisEnv, serviceAddressEnv } from '@wallet-api/core/config';
import { createGrpcClient } from '@wallet-api/core/grpc';
import { IndexerClient } from '@wallet-api/core/proto/indexer';
import { ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import { createTokenDirectory } from '@wallet-api/core/reference-data';
import { runGrpcService } from '@wallet-api/core/service';
import { createBookKeeper } from './book/book-keeper.js';
import { createLegPricing } from './book/leg-pricing.js';
import { createWalletPnl } from './compute/wallet-pnl.js';
import { pnlService } from './grpc/pnl-service.js';
import { createHistoryReader, maxWalletTransactions } from './history/history-reader.js';

const env = serviceAddressEnv.extend(redisEnv.shape).extend({
  // A request waits this long for a wallet's computation, then answers 503 with Retry-After (spec 4.2 rule 5).
  PNL_WAIT_MS: z.coerce.number().int().positive().default(5_000),
  // Wallet books kept in memory (one per wallet, chain set, currency, network and ledger kind).
  PNL_BOOKS: z.coerce.number().int().positive().default(2_000),
  // Transactions those books may hold together (about 600 bytes of memory each).
  PNL_BOOK_TRANSACTIONS: z.coerce.number().int().positive().default(2_000_000),
});

await runGrpcService('pnl', parseEnv(serviceAddressEnv).PNL_GRPC_PORT, async ({ logger }) => {
  const config = parseEnv(env);
  const referenceData = createGrpcClient(ReferenceDataClient, config.REFERENCE_DATA_GRPC_ADDRESS);
  const indexer = createGrpcClient(IndexerClient, config.INDEXER_GRPC_ADDRESS);
  const changes = connectChangeVersions(config.REDIS_URL, {
    keyPrefix: config.REDIS_KEY_PREFIX,
    onError: (error) => logger.warn({ err: error }, 'redis error'),
  });
  return {
    services: [
      pnlService({
        pnl: createWalletPnl({
          books: createBookKeeper({
            history: createHistoryReader({ indexer }),
            pricing: createLegPricing({ tokens: createTokenDirectory(referenceData), referenceData }),
            versions: changes.versions,
            maxBooks: config.PNL_BOOKS,
            maxBookTransactions: config.PNL_BOOK_TRANSACTIONS,
            maxTransactions: maxWalletTransactions,
          }),
          referenceData,
        }),
        versions: changes.versions,
        waitMs: config.PNL_WAIT_MS,
      }),
    ],
    closers: [
      { name: 'redis', close: async () => changes.close() },
      { name: 'indexer client', close: async () => indexer.close() },
      { name: 'reference-data client', close: async () => referenceData.close() },
    ],
  };
});
