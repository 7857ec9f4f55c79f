import { z } from 'zod';

const base64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const evmAddress = z.string({ error: 'must be an EVM address' }).regex(/^0x[0-9a-fA-F]{40}$/, 'must be an EVM address');
const uint = z.string({ error: 'must be a decimal integer in a string' }).regex(/^\d{1,78}$/, 'must be a decimal integer in a string');

/** What x402's exact EVM scheme reads of an EIP-3009 payment (the requirements' extra names the token's EIP-712 domain, so clients send one). */
const evmExactPayload = z.object({
  signature: z.string({ error: 'must be 0x-hex' }).regex(/^0x(?:[0-9a-fA-F]{2})+$/, 'must be 0x-hex'),
  authorization: z.object({
    from: evmAddress,
    to: evmAddress,
    value: uint,
    validAfter: uint,
    validBefore: uint,
    nonce: z.string({ error: 'must be 32 bytes of 0x-hex' }).regex(/^0x[0-9a-fA-F]{64}$/, 'must be 32 bytes of 0x-hex'),
  }),
});

/** What x402's exact Solana scheme reads: the partly signed transaction. */
const svmExactPayload = z.object({
  transaction: z.string({ error: 'must be a base64 transaction' }).min(1, 'must be a base64 transaction').regex(base64, 'must be a base64 transaction'),
});

const envelope = z.object({
  x402Version: z.number().int(),
  accepted: z.object({ scheme: z.string(), network: z.string() }),
  payload: z.record(z.string(), z.unknown()),
});

function describe(error: z.ZodError, prefix: string): string {
  const issue = error.issues[0]!;
  const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
  return path === '' ? 'is not a JSON payment payload (an object of x402Version, accepted and payload)' : `${path}: ${issue.message}`;
}

/**
 * What is wrong with a payment header's value (base64 of the x402 payment payload's JSON), in
 * words naming the field; undefined when it has the shape x402's exact schemes read. Checked
 * before x402 reads it: x402 writes a malformed header's stack trace, raw decoded bytes included,
 * to the console, and a field of the wrong type reaches the client as an exception's message
 * ("Cannot convert undefined to a BigInt"). A payment for a network none of the requirements name
 * is left to x402, which refuses it.
 */
export function paymentHeaderProblem(value: string): string | undefined {
  if (!base64.test(value)) return 'is not base64';
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(value, 'base64').toString('utf8'));
  } catch {
    return 'is not base64 of a JSON payment payload';
  }
  const parsed = envelope.safeParse(decoded);
  if (!parsed.success) return describe(parsed.error, '');
  const { network } = parsed.data.accepted;
  const schema = network.startsWith('eip155:') ? evmExactPayload : network.startsWith('solana:') ? svmExactPayload : undefined;
  const payload = schema?.safeParse(parsed.data.payload);
  return payload && !payload.success ? describe(payload.error, 'payload') : undefined;
}
