import { Counter, Histogram, type Registry } from '@wallet-api/core/metrics';

export interface PositionsMetrics {
  /** Kafka messages applied, by topic. */
  messages: Counter<'topic'>;
  /** Protocol position reads from the chain, by chain and outcome (read, failed). */
  refreshes: Counter<'chain' | 'outcome'>;
  refreshSeconds: Histogram<'chain'>;
  /** Opening balances read from the chain, by chain and outcome (read, failed). */
  openingReads: Counter<'chain' | 'outcome'>;
}

export function createPositionsMetrics(registry: Registry): PositionsMetrics {
  const registers = [registry];
  return {
    messages: new Counter({
      name: 'positions_messages_applied_total',
      help: 'Kafka messages applied to balances and snapshots',
      labelNames: ['topic'],
      registers,
    }),
    refreshes: new Counter({
      name: 'positions_protocol_reads_total',
      help: 'Protocol position reads from the chain',
      labelNames: ['chain', 'outcome'],
      registers,
    }),
    refreshSeconds: new Histogram({
      name: 'positions_protocol_read_seconds',
      help: 'Time to read a wallet’s protocol positions on one chain',
      labelNames: ['chain'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    openingReads: new Counter({
      name: 'positions_opening_reads_total',
      help: 'Opening balances read from the chain for balances seen the first time',
      labelNames: ['chain', 'outcome'],
      registers,
    }),
  };
}
