import { z } from 'zod';

export const errorResponseSchema = z
  .object({
    errors: z.array(z.object({ title: z.string(), detail: z.string() })).min(1),
  })
  .meta({ id: 'ErrorResponse' });

/** `X-Env: testnet` switches an endpoint to testnet data; it has no other value. */
export const networkHeaders = z.object({
  'X-Env': z.enum(['testnet'], { error: 'must be "testnet" when present' }).optional(),
});

export function relationshipSchema(type: string) {
  return z.object({
    links: z.object({ related: z.url() }),
    data: z.object({ type: z.literal(type), id: z.string() }),
  });
}

export const selfLinksSchema = z.object({ self: z.url() });
