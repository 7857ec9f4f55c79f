import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { nonPublicRange, parseAddress } from './address-range.js';
import { allowsAddress, allowsHost, type AllowRule } from './allow-list.js';

/**
 * Decides whether a URL some outside party gave us may be called: http(s), no credentials, and
 * every address it resolves to public unless the operator allow-listed it. Callers check again
 * right before each request and connect only to the addresses checked (see address-pins.ts),
 * so a DNS answer that changes in between (rebinding) cannot reach the internal network.
 */

export type ResolveHost = (host: string) => Promise<{ address: string; family: number }[]>;

export type OutboundUrlCheck =
  | { ok: true; url: URL; addresses: string[] }
  /** retryable: the host did not resolve now, which may change; every other refusal is permanent. */
  | { ok: false; reason: string; retryable: boolean };

export interface OutboundUrlGuard {
  check(url: string): Promise<OutboundUrlCheck>;
}

export interface OutboundUrlGuardOptions {
  allow: readonly AllowRule[];
  lookup?: ResolveHost;
  /** Names the URL in refusals, which some callers show to clients as is (e.g. `callback_url`). */
  subject?: string;
  /**
   * Lets plain http reach public hosts. Off for anything we send secrets or signed payloads to;
   * on for fetching public content that is commonly served without TLS (NFT metadata).
   * Allow-listed hosts and ranges may use http either way.
   */
  allowPublicHttp?: boolean;
  /**
   * The URL is text a client typed for us to keep (a callback URL), refused unless it means what
   * it says: no control character or space (the URL standard drops tabs and line breaks, which
   * would make the stored URL another than the one sent), no `@` in the authority (`https://:@host`
   * parses to no credentials), no port 0. Off for URLs read from chains (NFT metadata), where a
   * stray line break is common and harmless.
   */
  exactText?: boolean;
}

const systemLookup: ResolveHost = (host) => dnsLookup(host, { all: true, verbatim: true });

const refuse = (reason: string): OutboundUrlCheck => ({ ok: false, reason, retryable: false });

export function createOutboundUrlGuard({
  allow,
  lookup = systemLookup,
  subject = 'url',
  allowPublicHttp = false,
  exactText = false,
}: OutboundUrlGuardOptions): OutboundUrlGuard {
  const schemeRule = allowPublicHttp ? `${subject} must use http or https` : `${subject} must use https`;

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
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this looks for
      if (exactText && /[\x00-\x20\x7f]/.test(text)) return refuse(`${subject} must not contain spaces or control characters`);
      let url: URL;
      try {
        url = new URL(text);
      } catch {
        return refuse(`${subject} is not a valid absolute URL`);
      }
      if (url.protocol !== 'https:' && url.protocol !== 'http:') return refuse(schemeRule);
      if (url.username !== '' || url.password !== '') return refuse(`${subject} must not contain credentials`);
      if (exactText && /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(text)) return refuse(`${subject} must not contain credentials`);
      if (url.port === '0') return refuse(`${subject} must not use port 0`);

      const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
      const addresses = await resolve(host);
      if (addresses.length === 0) return { ok: false, reason: `${subject} host does not resolve`, retryable: true };
      if (allowsHost(allow, host)) return { ok: true, url, addresses };

      const problem = firstProblem(allow, addresses, isIP(host) !== 0, subject);
      if (problem !== undefined) return refuse(problem);
      if (url.protocol === 'http:' && !allowPublicHttp) {
        const allowListed = addresses.every((address) => allowsAddress(allow, parseAddress(address)!));
        if (!allowListed) return refuse(schemeRule);
      }
      return { ok: true, url, addresses };
    },
  };
}

/** Every address must pass: a name answering with one public and one private address is refused. */
function firstProblem(allow: readonly AllowRule[], addresses: readonly string[], literal: boolean, subject: string): string | undefined {
  const lead = literal ? `${subject} host is` : `${subject} host resolves to`;
  for (const text of addresses) {
    const address = parseAddress(text);
    if (address === undefined) return `${lead} an unrecognised address (${text})`;
    if (allowsAddress(allow, address)) continue;
    const range = nonPublicRange(address);
    if (range !== undefined) return `${lead} ${range} (${text})`;
  }
  return undefined;
}

/**
 * The subscription service's webhook guard: https only for public hosts, since webhooks carry
 * signed payloads, the URL's text exactly as it is to be kept, and refusals name `callback_url`
 * because clients see them as is.
 */
export type CallbackUrlGuard = OutboundUrlGuard;
export type CallbackUrlCheck = OutboundUrlCheck;
export type CallbackUrlGuardOptions = Pick<OutboundUrlGuardOptions, 'allow' | 'lookup'>;

export function createCallbackUrlGuard(options: CallbackUrlGuardOptions): CallbackUrlGuard {
  return createOutboundUrlGuard({ ...options, subject: 'callback_url', exactText: true });
}
