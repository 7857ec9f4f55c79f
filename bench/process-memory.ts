// Resident memory of the start command's service processes, read from /proc.
import { readdirSync, readFileSync } from 'node:fs';

/** Each running `services/<name>/dist/main.js` process with its resident set in MB. */
export function servicesMemory(): { name: string; megabytes: number }[] {
  const found: { name: string; megabytes: number }[] = [];
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
      const service = /services\/([\w-]+)\/dist\/main\.js/.exec(commandLine)?.[1];
      if (!service) continue;
      const resident = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
      if (resident) found.push({ name: service, megabytes: Math.round(Number(resident) / 1024) });
    } catch {
      // The process exited while it was read.
    }
  }
  return found.sort((a, b) => a.name.localeCompare(b.name));
}
