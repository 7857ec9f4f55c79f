import { createClickHouse, sql, join, inList, orphanedBlocks } from '@wallet-api/core/clickhouse';
const ch = createClickHouse({ url: 'http://127.0.0.1:18123', database: 'wallet_api' });
const address = '0x42941e989f777f89bd99086bccd22cb91a25c7ba';
const chainIds = ['ethereum', 'polygon', 'arbitrum'];
const stored: any[] = await ch.query(sql`SELECT chain_id, address, block_number, block_hash, toUnixTimestamp(block_timestamp) AS block_timestamp, transaction_index, hash, operation_type, is_trash, asset_types, token_addresses, counterparties FROM wallet_transactions WHERE address = ${address} ORDER BY block_timestamp DESC LIMIT 400`);
function source(rows: any[]) {
  const col = (f: (r: any) => any) => rows.map(f);
  const storedSel = sql`SELECT chain_id, address, block_number, block_hash, block_timestamp, transaction_index, hash, operation_type, is_trash, asset_types, token_addresses, counterparties FROM wallet_transactions WHERE address = ${address} AND chain_id IN ${inList(chainIds)}`;
  const lit = sql`SELECT chain_id_[i] AS chain_id, address_[i] AS address, block_number_[i] AS block_number, block_hash_[i] AS block_hash, block_timestamp_[i] AS block_timestamp, transaction_index_[i] AS transaction_index, hash_[i] AS hash, operation_type_[i] AS operation_type, is_trash_[i] AS is_trash, asset_types_[i] AS asset_types, token_addresses_[i] AS token_addresses, counterparties_[i] AS counterparties
   FROM (SELECT CAST(${col((r) => r.chain_id)} AS Array(String)) AS chain_id_, CAST(${col((r) => r.address)} AS Array(String)) AS address_,
     CAST(${col((r) => BigInt(r.block_number))} AS Array(UInt64)) AS block_number_, CAST(${col((r) => r.block_hash)} AS Array(String)) AS block_hash_,
     arrayMap(x -> toDateTime(x), CAST(${col((r) => BigInt(r.block_timestamp))} AS Array(UInt32))) AS block_timestamp_,
     CAST(${col((r) => BigInt(r.transaction_index))} AS Array(UInt32)) AS transaction_index_, CAST(${col((r) => r.hash)} AS Array(String)) AS hash_,
     CAST(${col((r) => r.operation_type)} AS Array(String)) AS operation_type_, CAST(${col((r) => BigInt(r.is_trash))} AS Array(UInt8)) AS is_trash_,
     CAST(${col((r) => r.asset_types)} AS Array(Array(String))) AS asset_types_, CAST(${col((r) => r.token_addresses)} AS Array(Array(String))) AS token_addresses_,
     CAST(${col((r) => r.counterparties)} AS Array(Array(String))) AS counterparties_,
     arrayJoin(arrayEnumerate(chain_id_)) AS i)`;
  return sql`(${storedSel} UNION ALL ${lit})`;
}
for (const n of [1, 50, 150, 300]) {
  const q = sql`SELECT chain_id, address, block_number, block_hash, toUnixTimestamp(block_timestamp) AS mined_at, transaction_index, hash, operation_type, is_trash FROM ${source(stored.slice(0, n))}
    WHERE address = ${address} AND chain_id IN ${inList(chainIds)} AND (chain_id, block_hash) NOT IN (${orphanedBlocks(chainIds)}) AND is_trash = 0
    ORDER BY block_timestamp DESC, block_number DESC, transaction_index DESC, chain_id DESC LIMIT 1 BY chain_id, block_hash, transaction_index LIMIT 101`;
  const times: number[] = []; let rows: any[] = [];
  for (let i = 0; i < 8; i++) { const t = performance.now(); rows = await ch.query(q); times.push(performance.now() - t); }
  times.sort((a, b) => a - b);
  console.log(n, 'rows', rows.length, 'median', times[4].toFixed(1), 'min', times[0].toFixed(1), (rows[0] as any)?.mined_at);
}
await ch.close();
