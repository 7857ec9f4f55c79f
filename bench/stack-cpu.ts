// CPU time of the start command's stack per component, read from /proc: what a bench phase cost
// each process, the services and the infrastructure a request can reach.
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's utime and stime (USER_HZ on Linux). */
export const clockTicksPerSecond = 100;

/** What a process is, by its command line; undefined for processes outside the stack. */
function classify(commandLine: string): string | undefined {
  if (commandLine.includes('clickhouse-server')) return 'clickhouse';
  if (commandLine.includes('kafka.Kafka') || (commandLine.includes('java') && commandLine.includes('kafka'))) return 'kafka';
  if (/(^|\/)postgres(:| |$)/.test(commandLine) || commandLine.startsWith('postgres:')) return 'postgres';
  if (commandLine.includes('redis-server')) return 'redis';
  if (commandLine.includes('/bin/anvil')) return 'anvil';
  const service = /services\/([a-z-]+)\/dist\/(main|cli\/main)\.js( live)?/.exec(commandLine);
  if (service) return service[3] ? 'devnet-live' : service[1];
  return undefined;
}

/** CPU ticks (user + system) used so far, per stack component. */
export function stackCpuTicks(): Map<string, number> {
  const totals = new Map<string, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const component = classify(readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ').trim());
      if (!component) continue;
      // Fields after the command name in parentheses: utime is the 14th field, stime the 15th.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      totals.set(component, (totals.get(component) ?? 0) + Number(fields[11]) + Number(fields[12]));
    } catch {
      // The process ended while it was read.
    }
  }
  return totals;
}

/** CPU seconds each component used between two readings, largest first; a component that ended counts nothing. */
export function cpuSecondsBetween(before: ReadonlyMap<string, number>, after: ReadonlyMap<string, number>): { component: string; seconds: number }[] {
  return [...after]
    .map(([component, ticks]) => ({ component, seconds: (ticks - (before.get(component) ?? ticks)) / clockTicksPerSecond }))
    .sort((a, b) => b.seconds - a.seconds);
}
