import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { apiReference } from '@scalar/express-api-reference';
import express, { Router } from 'express';

/** Where the page loads Scalar's script from: this gateway, never a CDN (deployments may have no internet). */
export const docsAssetsPath = '/docs/assets';

// The package exports no path to its browser build: it sits beside the main entry, in dist/browser.
const scalarBrowserBuild = join(dirname(createRequire(import.meta.url).resolve('@scalar/api-reference')), 'browser');

/**
 * `GET /docs`: Scalar's interactive reference of `/v1/openapi.json`, with its "try it" client.
 * Everything the page needs comes from this gateway: the script from the package's own build,
 * Scalar's web fonts replaced by the system's, its telemetry and AI agent off.
 */
export function docsPage(): Router {
  const router = Router();
  router.use('/assets', express.static(scalarBrowserBuild, { index: false, maxAge: '1h' }));
  router.get(
    '/',
    apiReference({
      pageTitle: 'wallet-api reference',
      cdn: `${docsAssetsPath}/standalone.js`,
      url: '/v1/openapi.json',
      // "Try it" sends requests to the gateway that served the page (same origin, so no CORS), not
      // to the document's public URL, which may name another deployment or none this browser reaches.
      servers: [{ url: '/', description: 'this gateway' }],
      authentication: { preferredSecurityScheme: 'basicAuth' },
      withDefaultFonts: false,
      telemetry: false,
      agent: { disabled: true },
      showDeveloperTools: 'never',
      persistAuth: false,
    }),
  );
  return router;
}
