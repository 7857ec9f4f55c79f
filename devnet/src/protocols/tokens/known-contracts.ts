import { getAddress, isAddress, type Address } from 'viem';

/** Manifests do not change once actions run, and approvals ask for this list again and again. */
const cache = new WeakMap<object, Address[]>();

/**
 * Every address in the deployed modules' manifests (routers, pools, markets, tokens, ...), in
 * manifest order: the contracts a wallet plausibly approves. May include non-contract addresses
 * such as treasuries, which wallets approve by mistake too.
 */
export function knownContracts(deployed: Readonly<Record<string, unknown>>): Address[] {
  const cached = cache.get(deployed);
  if (cached) return cached;
  const found = new Set<Address>();
  const visit = (value: unknown): void => {
    if (typeof value === 'string') {
      if (value.length === 42 && isAddress(value, { strict: false })) found.add(getAddress(value));
    } else if (Array.isArray(value)) {
      value.forEach(visit);
    } else if (value && typeof value === 'object') {
      Object.values(value).forEach(visit);
    }
  };
  visit(deployed);
  const addresses = [...found];
  cache.set(deployed, addresses);
  return addresses;
}
