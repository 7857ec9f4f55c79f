/**
 * Whether a request path is one of the declared routes' (OpenAPI form, `/v1/wallets/{address}/positions/`),
 * matched as Express matches them: a parameter is one path segment, the trailing slash optional,
 * letters in any case. Requests to no declared path are answered 404 before authentication and
 * pay per request, so a keyless typo is neither asked for a key nor quoted a price.
 */
export function declaredPathMatcher(paths: readonly string[]): (path: string) => boolean {
  const patterns = paths.map((path) => {
    const segments = path.replace(/\/$/, '').split(/(\{[^}]+\})/);
    const source = segments.map((segment) => (/^\{[^}]+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))).join('');
    return new RegExp(`^${source}/?$`, 'i');
  });
  return (path) => patterns.some((pattern) => pattern.test(path));
}
