import type { Router } from 'express';

/**
 * Whether a request path is one a router has a route for (Express form, `/wallets/:address/positions/`,
 * under `base`), matched as Express matches them: a parameter is one path segment, the trailing
 * slash optional, letters in any case. Requests to no such path are answered 404 before
 * authentication and pay per request, so a keyless typo is neither asked for a key nor quoted a price.
 */
export function declaredPathMatcher(base: string, router: Pick<Router, 'stack'>): (path: string) => boolean {
  const paths = router.stack.flatMap((layer) => (layer.route ? [`${base}${String(layer.route.path)}`] : []));
  const patterns = paths.map((path) => {
    const source = path
      .replace(/\/$/, '')
      .split('/')
      .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&')))
      .join('/');
    return new RegExp(`^${source}/?$`, 'i');
  });
  return (path) => patterns.some((pattern) => pattern.test(path));
}
