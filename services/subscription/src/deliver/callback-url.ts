import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { nonPublicRange, parseAddress } from './address-range.js';
import { allowsAddress, allowsHost, type AllowRule } from './allow-list.js';

/**
 * Decides whether a subscriber's callback_url may be called: https, no credentials, and every
 * address it resolves to public unless the operator allow-listed it. Run at subscription time
 * for a helpful error, and again at each delivery, connecting only to the addresses checked,
 * so a DNS answer that changes in between (rebinding) cannot reach the internal network.
 */

export type ResolveHost = (host: string) => Promise<{ address: string; family: number }[]>;

export type CallbackUrlCheck =
  | { ok: true; url: URL; addresses: string[] }
  /** retryable: the host did not resolve now, which may change; every other refusal is permanent. */
  | { ok: false; reason: string; retryable: boolean };

export interface CallbackUrlGuard {
  check(url: string): Promise<CallbackUrlCheck>;
}

export interface CallbackUrlGuardOptions {
  allow: readonly AllowRule[];
  lookup?: ResolveHost;
}

const systemLookup: ResolveHost = (host) => dnsLookup(host, { all: true, verbatim: true });

const refuse = (reason: string): CallbackUrlCheck => ({ ok: false, reason, retryable: false });

export function createCallbackUrlGuard({ allow, lookup = systemLookup }: CallbackUrlGuardOptions): CallbackUrlGuard {
  async function resolve(host: string): Promise<string[]> {
    if (isIP(host) !== 0) return [host];
    try {
      return (await lookup(host)).map((answer) => answer.address);
    } catch {
      return [];
    }
  }

  return {
    async check(text) {
      let url: URL;
      try {
        url = new URL(text);
      } catch {
        return refuse('callback_url is not a valid absolute URL');
      }
      if (url.protocol !== 'https:' && url.protocol !== 'http:') return refuse('callback_url must use https');
      if (url.username !== '' || url.password !== '') return refuse('callback_url must not contain credentials');

      const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
      const addresses = await resolve(host);
      if (addresses.length === 0) return { ok: false, reason: 'callback_url host does not resolve', retryable: true };
      if (allowsHost(allow, host)) return { ok: true, url, addresses };

      const problem = firstProblem(allow, addresses, isIP(host) !== 0);
      if (problem !== undefined) return refuse(problem);
      const allowListed = addresses.every((address) => allowsAddress(allow, parseAddress(address)!));
      if (url.protocol === 'http:' && !allowListed) return refuse('callback_url must use https');
      return { ok: true, url, addresses };
    },
  };
}

/** Every address must pass: a name answering with one public and one private address is refused. */
function firstProblem(allow: readonly AllowRule[], addresses: readonly string[], literal: boolean): string | undefined {
  const subject = literal ? 'callback_url host is' : 'callback_url host resolves to';
  for (const text of addresses) {
    const address = parseAddress(text);
    if (address === undefined) return `${subject} an unrecognised address (${text})`;
    if (allowsAddress(allow, address)) continue;
    const range = nonPublicRange(address);
    if (range !== undefined) return `${subject} ${range} (${text})`;
  }
  return undefined;
}
