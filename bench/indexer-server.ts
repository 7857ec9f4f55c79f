// The indexer's gRPC service over a bench's own ClickHouse database, in a process of its own as the
// stack runs it: a bench measuring a caller of the indexer (bench:pnl) does not also pay for the
// indexer's reads and encoding on its own event loop. Sends `{ port }` to its parent once serving;
// stops when the parent disconnects.
//   indexer-server.ts <clickhouse database>
import { createClickHouse } from '@wallet-api/core/clickhouse';
import { createGrpcClient, startGrpcServer } from '@wallet-api/core/grpc';
import { createLogger } from '@wallet-api/core/logger';
import { ReferenceDataClient } from '@wallet-api/core/proto/reference_data';
import { testConfig } from '@wallet-api/core/testing';
import { indexerService } from '../services/indexer/src/grpc/indexer-service.js';

const [database] = process.argv.slice(2);
const config = testConfig();
const clickhouse = createClickHouse({
  url: config.CLICKHOUSE_URL,
  username: config.CLICKHOUSE_USER,
  password: config.CLICKHOUSE_PASSWORD,
  database: database!,
});
const referenceData = createGrpcClient(ReferenceDataClient, process.env.REFERENCE_DATA_GRPC_ADDRESS ?? '127.0.0.1:50051');
const logger = createLogger('bench-indexer', 'warn');
const server = await startGrpcServer({ host: '127.0.0.1', port: 0, services: [indexerService({ clickhouse, referenceData })], logger });
process.on('disconnect', () => {
  referenceData.close();
  void server.shutdown(1_000).finally(() => clickhouse.close());
});
process.send!({ port: server.port });
