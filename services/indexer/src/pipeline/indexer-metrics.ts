import { Counter, Gauge, type Registry } from '@wallet-api/core/metrics';

export interface IndexerMetrics {
  blocks: Counter<'chain'>;
  transactions: Counter<'chain'>;
  reorgs: Counter<'chain'>;
  rpcRetries: Counter<'chain'>;
  restarts: Counter<'chain'>;
  height: Gauge<'chain'>;
  head: Gauge<'chain'>;
  lag: Gauge<'chain'>;
}

export function createIndexerMetrics(registry: Registry): IndexerMetrics {
  const registers = [registry];
  const labelNames = ['chain'] as const;
  return {
    blocks: new Counter({ name: 'indexer_blocks_published_total', help: 'Blocks published to Kafka and checkpointed', labelNames, registers }),
    transactions: new Counter({ name: 'indexer_transactions_published_total', help: 'Decoded transactions published to Kafka', labelNames, registers }),
    reorgs: new Counter({ name: 'indexer_reorgs_total', help: 'Reorgs detected and rolled back', labelNames, registers }),
    rpcRetries: new Counter({ name: 'indexer_rpc_retries_total', help: 'RPC requests retried after a transient failure', labelNames, registers }),
    restarts: new Counter({
      name: 'indexer_chain_restarts_total',
      help: 'Times a chain indexer restarted from its checkpoint after a failure',
      labelNames,
      registers,
    }),
    height: new Gauge({ name: 'indexer_block_height', help: 'Newest block published for the chain', labelNames, registers }),
    head: new Gauge({ name: 'indexer_chain_head', help: 'Chain head seen by the last progress check', labelNames, registers }),
    lag: new Gauge({ name: 'indexer_lag_blocks', help: 'Blocks between the chain head and the newest published block', labelNames, registers }),
  };
}
