import { readFile } from 'node:fs/promises';
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import type { RequestHandler } from 'express';
import type { Logger } from '@wallet-api/core/logger';
import { z } from 'zod';
import { apiError, titles } from '../http/api-error.js';
import { errorResponseSchema } from '../schemas/common.js';

export const webhookCertificatePath = '/v1/webhooks/certificate.pem';
const pemContentType = 'application/x-pem-file';

/**
 * The public certificate of the `X-Signature` (RSA-SHA256) webhook scheme, which webhooks point at
 * with `X-Certificate-URL`. Served without authentication, like the OpenAPI document, and read
 * on every request so that replacing the file takes effect without a restart.
 */
export function webhookCertificate(file: string | undefined, logger: Logger): RequestHandler {
  return async (_req, res, next) => {
    if (!file) {
      next(apiError(404, 'no webhook certificate is configured'));
      return;
    }
    let pem: Buffer;
    try {
      pem = await readFile(file);
    } catch (error) {
      logger.error({ err: error, file }, 'webhook certificate cannot be read');
      next(apiError(500, 'the webhook certificate could not be read'));
      return;
    }
    res.status(200).type(pemContentType).send(pem);
  };
}

export function registerWebhookCertificatePath(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: webhookCertificatePath,
    summary: 'The PEM certificate verifying the X-Signature header of webhooks (no authentication)',
    tags: ['webhooks'],
    security: [],
    responses: {
      200: { description: 'Success', content: { [pemContentType]: { schema: z.string().meta({ description: 'PEM-encoded X.509 certificate' }) } } },
      404: { description: titles[404], content: { 'application/json': { schema: errorResponseSchema } } },
      500: { description: titles[500], content: { 'application/json': { schema: errorResponseSchema } } },
    },
  });
}
