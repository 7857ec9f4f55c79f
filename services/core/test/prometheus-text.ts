// Reads what a Prometheus server scrapes: the text exposition format, 0.0.4.

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Scrape {
  samples: Sample[];
  /** Every metric family with a HELP line, observed or not yet. */
  help: Set<string>;
}

const labelPattern = /([A-Za-z_][A-Za-z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parseScrape(text: string): Scrape {
  const samples: Sample[] = [];
  const help = new Set<string>();
  for (const line of text.split('\n')) {
    if (line.startsWith('# HELP ')) help.add(line.split(' ')[2]!);
    if (line === '' || line.startsWith('#')) continue;
    const valueAt = line.lastIndexOf(' ');
    const series = line.slice(0, valueAt);
    const open = series.indexOf('{');
    const labels: Record<string, string> = {};
    if (open >= 0) {
      for (const [, key, value] of series.slice(open + 1, series.lastIndexOf('}')).matchAll(labelPattern)) {
        labels[key!] = value!.replace(/\\(.)/g, (_, escaped: string) => (escaped === 'n' ? '\n' : escaped));
      }
    }
    samples.push({ name: open >= 0 ? series.slice(0, open) : series, labels, value: Number(line.slice(valueAt + 1)) });
  }
  return { samples, help };
}

/** The sum of a series' samples whose labels include `labels`; 0 when none (not yet observed). */
export function seriesSum(scrape: Scrape | undefined, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const sample of scrape?.samples ?? []) {
    if (sample.name !== name) continue;
    if (Object.entries(labels).every(([key, value]) => sample.labels[key] === value)) sum += sample.value;
  }
  return sum;
}
