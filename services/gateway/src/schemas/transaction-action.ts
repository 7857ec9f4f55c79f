import { z } from 'zod';

/**
 * Bodies of POST /v1/transactions/build-action/ and /dismiss-action/ (spec 4.5, decisions.md
 * "Pending and unsigned actions"). Ids are only checked for shape: an id the service never issued
 * is a 404, not a 400.
 */
const jsonObject = (issue: { code?: string }) => (issue.code === 'invalid_type' ? 'must be a JSON object' : undefined);

const actionId = z
  .string({ error: 'is required and must be a string' })
  .min(1, 'must not be empty')
  .max(100, 'must be at most 100 characters')
  .regex(/^[A-Za-z0-9_-]+$/, 'must be an action id from meta.unsigned or a swap quote (letters, digits, _ and -)');

const transactionHash = z
  .string({ error: 'must be a string' })
  .regex(/^0x[0-9a-fA-F]{64}$/, 'must be a transaction hash (0x and 64 hexadecimal digits)')
  .meta({ description: 'Hash of the transaction the client signed and broadcast; recorded, never broadcast by the service.' });

export const buildActionBody = z
  .strictObject({ action_id: actionId, signature_approve: transactionHash.optional(), signature_swap: transactionHash.optional() }, { error: jsonObject })
  .meta({ id: 'BuildAction' });

export const dismissActionBody = z
  .strictObject(
    {
      action_id: actionId,
      signature: z
        .string({ error: 'is required and must be a string' })
        .regex(
          /^(0x([0-9a-fA-F]{2})+|[1-9A-HJ-NP-Za-km-z]{32,100})$/,
          'must be a 0x-hex EIP-191 signature (EVM wallets) or a base58 ed25519 signature (Solana wallets)',
        )
        .meta({
          description:
            "The wallet's signature of the action id: EIP-191 personal_sign of the id string (EVM, 0x-hex), or ed25519 over its UTF-8 bytes (Solana, base58).",
        }),
    },
    { error: jsonObject },
  )
  .meta({ id: 'DismissAction' });

const evmTransaction = z.object({
  chain_id: z.string(),
  from: z.string(),
  to: z.string(),
  data: z.string(),
  value: z.string().meta({ description: 'Wei, decimal.' }),
  gas: z.string().meta({ description: 'Gas limit, decimal.' }),
});

const solanaTransaction = z.object({
  chain_id: z.string(),
  from: z.string(),
  serialized: z.string().meta({ description: 'The unsigned transaction, base64.' }),
});

export const transactionBuildResponseSchema = z
  .object({
    data: z.object({
      type: z.literal('transaction_builds'),
      attributes: z.object({ transaction: z.union([evmTransaction, solanaTransaction]) }),
    }),
  })
  .meta({ id: 'TransactionBuild' });
