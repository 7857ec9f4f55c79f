#!/usr/bin/env bash
# Forgets everything the services derived from the chains, in the databases the start command
# serves (wallet_api): the indexer's checkpoints, token metadata, the positions service's balances,
# the ClickHouse history tables and the Kafka log (topics and consumer offsets). start.sh runs it
# every time it restarts the chains from a saved world, whose blocks then differ from those the
# services saw. Services must be stopped.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/common.sh
COMPONENT=reset

log "PostgreSQL: indexer checkpoints, token metadata, balances, protocol positions, NFTs and the subscription matcher's Kafka offsets"
psql -q -h 127.0.0.1 -U postgres -d wallet_api \
  -c 'TRUNCATE indexed_blocks, token_metadata, wallet_balances, balance_openings, balance_entries, position_block_states, protocol_snapshots, subscription_consumer_offsets, subscription_orphaned_blocks, nft_transfer_entries, nft_block_states, nft_wallet_openings, nft_opening_holdings, nft_tokens, nft_collections, nft_market_events' >/dev/null ||
  die "cannot clear PostgreSQL tables (is scripts/up.sh done?)"

log "ClickHouse: wallet history, balance changes (the chart's too), blocks and their states, pool events and prices"
for table in wallet_transactions balance_changes chart_balance_changes block_states chain_blocks pool_events token_prices price_days token_volumes; do
  clickhouse-client --host 127.0.0.1 --port 19000 --database wallet_api --query "TRUNCATE TABLE IF EXISTS ${table}" ||
    die "cannot truncate ClickHouse table ${table}"
done

log "Kafka: topics and consumer offsets start empty"
bash scripts/infra/kafka.sh down
rm -rf "$(component_dir kafka)/data"
bash scripts/up.sh
