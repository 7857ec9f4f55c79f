/**
 * Which keyless requests may be paid for: every GET that reads data. Transaction subscriptions
 * belong to an organization (a paid request has none to own them), so keyless requests there stay
 * 401 as do every write.
 */
export function isPayableRequest(method: string, path: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  return !/^\/v1\/tx-subscriptions(\/|$)/.test(path);
}
