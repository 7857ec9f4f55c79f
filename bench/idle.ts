// Benchmark: what the start command's stack costs with live devnet activity and no API traffic.
// Over a window (60 s by default) it reads every process's CPU time from /proc (user + system,
// children included once they are reaped) and ClickHouse's own counters (system.events
// InsertQuery, InsertedRows, MergedRows; active parts per table and the rows merges wrote per table
// from system.parts), and prints
// CPU seconds per second per process next to the issue's targets: the whole stack under 0.3
// cores, ClickHouse under 0.05, merged rows under 10x inserted rows.
// Needs the running stack of `bash scripts/start.sh`. The stores insert every five minutes, so the
// rows inserted and merged compare over a window of two rounds or more (--seconds 600).
//   pnpm bench:idle [--seconds 60] [--clickhouse http://127.0.0.1:18123]
import { parseArgs } from 'node:util';
import { clockTicksPerSecond, stackCpuTicks } from './stack-cpu.js';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '60' }, clickhouse: { type: 'string', default: 'http://127.0.0.1:18123' } } });
const windowSeconds = Number(values.seconds);
async function clickhouse<T>(query: string): Promise<T[]> {
  const response = await fetch(`${values.clickhouse}/?query=${encodeURIComponent(`${query} FORMAT JSONEachRow`)}`);
  if (!response.ok) throw new Error(`ClickHouse answered ${response.status}: ${await response.text()}`);
  return (await response.text())
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as T);
}

async function clickHouseEvents(): Promise<Map<string, number>> {
  const rows = await clickhouse<{ event: string; value: string }>(
    "SELECT event, value FROM system.events WHERE event IN ('InsertQuery', 'InsertedRows', 'MergedRows', 'SelectQuery')",
  );
  return new Map(rows.map((row) => [row.event, Number(row.value)]));
}

const ticksBefore = stackCpuTicks();
const eventsBefore = await clickHouseEvents();
const started = performance.now();
await new Promise((resolve) => setTimeout(resolve, windowSeconds * 1000));
const elapsed = (performance.now() - started) / 1000;
const ticksAfter = stackCpuTicks();
const eventsAfter = await clickHouseEvents();
const parts = await clickhouse<{ database: string; table: string; parts: string; max_level: string }>(
  "SELECT database, table, count() AS parts, max(level) AS max_level FROM system.parts WHERE active AND database LIKE 'wallet_api%' GROUP BY database, table ORDER BY parts DESC LIMIT 10",
);

// Parts that merges made during the window (inactive ones stay listed for old_parts_lifetime, 8
// minutes): which tables the merged rows come from.
const mergedBy = await clickhouse<{ table: string; merges: string; merged_rows: string; largest_rows: string }>(
  `SELECT table, count() AS merges, sum(rows) AS merged_rows, max(rows) AS largest_rows FROM system.parts
   WHERE database = 'wallet_api' AND level > 0 AND modification_time >= now() - ${Math.ceil(elapsed)}
   GROUP BY table ORDER BY merged_rows DESC`,
);

const cores = [...ticksAfter]
  .map(([component, ticks]) => ({ component, cores: Number(((ticks - (ticksBefore.get(component) ?? 0)) / clockTicksPerSecond / elapsed).toFixed(3)) }))
  .sort((a, b) => b.cores - a.cores);
const total = cores.reduce((sum, entry) => sum + entry.cores, 0);
const delta = (event: string) => (eventsAfter.get(event) ?? 0) - (eventsBefore.get(event) ?? 0);
console.table(cores);
console.table(parts);
console.table(
  mergedBy.map((row) => ({
    table: row.table,
    'parts merged into': Number(row.merges),
    'rows written by merges': Number(row.merged_rows),
    'largest merge (rows)': Number(row.largest_rows),
  })),
);
const inserted = delta('InsertedRows');
console.log(
  JSON.stringify({
    seconds: Number(elapsed.toFixed(1)),
    stackCores: Number(total.toFixed(3)),
    clickhouseCores: cores.find((entry) => entry.component === 'clickhouse')?.cores ?? 0,
    clickhouse: { insertQueries: delta('InsertQuery'), insertedRows: inserted, mergedRows: delta('MergedRows'), selectQueries: delta('SelectQuery') },
    mergedPerInserted: inserted === 0 ? null : Number((delta('MergedRows') / inserted).toFixed(1)),
    targets: { stackCores: 0.3, clickhouseCores: 0.05, mergedPerInserted: 10 },
  }),
);
