import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { IpAddress } from './address-range.js';

/**
 * Operator exceptions to the outbound URL guard's rules. Anything allow-listed, by address range
 * or by host name, may be reached over http as well as https: these are the operator's own
 * networks, where TLS is the operator's call.
 */
export type AllowRule =
  | { kind: 'range'; network: IpAddress; prefixLength: number }
  /** A host name that may resolve anywhere, private ranges included. */
  | { kind: 'host'; host: string };

const LOOPBACK: readonly AllowRule[] = [
  { kind: 'range', network: ipaddr.parse('127.0.0.0'), prefixLength: 8 },
  { kind: 'range', network: ipaddr.parse('::1'), prefixLength: 128 },
  { kind: 'host', host: 'localhost' },
];

/**
 * Parses `loopback,10.0.0.0/8,fd00::/8,10.1.2.3,hooks.internal.example`; empty allows nothing.
 * name tells the operator which setting holds a bad entry (e.g. `callback allow-list`).
 */
export function parseAllowList(text: string, name = 'allow-list'): AllowRule[] {
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .flatMap((entry) => parseEntry(entry, name));
}

function parseEntry(entry: string, name: string): readonly AllowRule[] {
  if (entry === 'loopback') return LOOPBACK;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family !== 0 && rest.length === 0) {
    const prefixLength = prefix === undefined ? (family === 4 ? 32 : 128) : Number(prefix);
    const maxPrefix = family === 4 ? 32 : 128;
    if (!/^\d+$/.test(prefix ?? '0') || prefixLength > maxPrefix) throw invalidEntry(entry, name);
    return [{ kind: 'range', network: ipaddr.parse(address), prefixLength }];
  }
  const host = hostName(entry);
  if (host === undefined) throw invalidEntry(entry, name);
  return [{ kind: 'host', host }];
}

function hostName(entry: string): string | undefined {
  if (!/^[A-Za-z0-9.-]+$/.test(entry)) return undefined;
  try {
    // The URL parser reads "10.0.0" or "0x7f.1" as addresses; a host rule must be a name as written.
    const host = normalizeHost(new URL(`https://${entry}`).hostname);
    return host === normalizeHost(entry) && isIP(host) === 0 ? host : undefined;
  } catch {
    return undefined;
  }
}

function invalidEntry(entry: string, name: string): Error {
  return new Error(`${name} entry "${entry}" is not "loopback", an address, a CIDR range or a host name`);
}

/** Host names compare without case or a trailing root dot. */
export function normalizeHost(host: string): string {
  return host.toLowerCase().replace(/\.$/, '');
}

export function allowsHost(rules: readonly AllowRule[], host: string): boolean {
  const wanted = normalizeHost(host);
  return rules.some((rule) => rule.kind === 'host' && rule.host === wanted);
}

export function allowsAddress(rules: readonly AllowRule[], address: IpAddress): boolean {
  return rules.some((rule) => rule.kind === 'range' && rule.network.kind() === address.kind() && address.match(rule.network, rule.prefixLength));
}
