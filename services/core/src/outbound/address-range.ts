import ipaddr from 'ipaddr.js';

/** Classifies resolved addresses so an outside party can never aim our requests at our own network. */

export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * Parses an address, reading IPv4-mapped IPv6 (::ffff:10.0.0.1) as the IPv4 it reaches.
 * ipaddr.js reads the dotted IPv4-compatible form (::10.0.0.1) the same way, which is the
 * safe reading: a kernel with automatic tunnels sends it to that IPv4 address.
 */
export function parseAddress(text: string): IpAddress | undefined {
  try {
    return ipaddr.process(text);
  } catch {
    return undefined;
  }
}

const DESCRIPTIONS: Record<string, string> = {
  private: 'a private address',
  loopback: 'a loopback address',
  linkLocal: 'a link-local address',
  uniqueLocal: 'a unique-local address',
  carrierGradeNat: 'a carrier-grade NAT address',
  unspecified: 'an unspecified address',
  multicast: 'a multicast address',
  broadcast: 'a broadcast address',
};

// Only 2000::/3 is allocated as global unicast; anything else outside ipaddr's named ranges
// (hex IPv4-compatible ::a00:1, unassigned space) has no business receiving webhooks.
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

/**
 * Undefined for a publicly routable unicast address, otherwise a phrase naming its kind.
 * Address-embedding IPv6 ranges (NAT64, 6to4, Teredo) are refused as reserved: where they
 * lead depends on gateways we cannot see.
 */
export function nonPublicRange(address: IpAddress): string | undefined {
  const range = address.range();
  if (range === 'unicast' && (address.kind() === 'ipv4' || address.match(GLOBAL_UNICAST_V6))) return undefined;
  return DESCRIPTIONS[range] ?? 'a reserved address';
}
