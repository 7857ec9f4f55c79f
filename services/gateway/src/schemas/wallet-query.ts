import { z } from 'zod';
import { isEvmAddress, isSolanaAddress } from '@wallet-api/core/addresses';

/** Spec 4, common parameters: the 16 currencies values may be denominated in. */
export const currencies = ['eth', 'btc', 'usd', 'eur', 'krw', 'rub', 'gbp', 'aud', 'cad', 'inr', 'jpy', 'nzd', 'try', 'zar', 'cny', 'chf'] as const;

/** decisions.md: `usd` when omitted. */
export const currencyParam = z.enum(currencies, { error: `must be one of ${currencies.join(', ')}` }).default('usd');

export { evmAddressPattern, isEvmAddress, isSolanaAddress } from '@wallet-api/core/addresses';
export const chainIdPattern = /^[A-Za-z0-9_.-]{1,64}$/;

export const walletAddressParam = z.object({
  address: z
    .string()
    .refine((value) => isEvmAddress(value) || isSolanaAddress(value), 'must be an EVM address (0x and 40 hex digits) or a Solana address (base58 of 32 bytes)'),
});

/**
 * A comma-separated list (form style, not exploded) of at most `maxItems` values, each checked by
 * `item`. Problems are reported on the parameter itself, naming the offending value, so a detail
 * reads `parameter filter[x]: ...` rather than pointing at an index of the split list.
 */
export function csvList<T extends z.ZodType<unknown, string>>(item: T, maxItems: number): z.ZodType<z.output<T>[], string> {
  return z.string().transform((value, context) => {
    const entries = value.split(',').map((entry) => entry.trim());
    if (entries.some((entry) => entry === '')) {
      context.addIssue({ code: 'custom', message: 'must not contain an empty value (a comma-separated list of non-empty values)' });
      return z.NEVER;
    }
    if (entries.length > maxItems) {
      context.addIssue({ code: 'custom', message: `must name at most ${maxItems} values (got ${entries.length})` });
      return z.NEVER;
    }
    const parsed: z.output<T>[] = [];
    for (const entry of entries) {
      const result = item.safeParse(entry);
      if (!result.success) {
        context.addIssue({ code: 'custom', message: `${result.error.issues[0]!.message} (got "${entry}")` });
        return z.NEVER;
      }
      parsed.push(result.data);
    }
    return parsed;
  });
}

/** `filter[chain_ids]` of the wallet endpoints; which chains qualify is checked against reference-data. */
export const chainIdsFilter = csvList(z.string().regex(chainIdPattern, 'each chain id must be 1 to 64 letters, digits, dots, dashes or underscores'), 25);

/** Spec 4.3/4.4 `filter[positions]`. */
export const positionsFilterParam = z
  .enum(['only_simple', 'only_complex', 'no_filter'], { error: 'must be only_simple, only_complex or no_filter' })
  .default('only_simple');

export const trashFilterParam = z
  .enum(['only_trash', 'only_non_trash', 'no_filter'], { error: 'must be only_trash, only_non_trash or no_filter' })
  .default('only_non_trash');

export const booleanParam = z.enum(['true', 'false'], { error: 'must be true or false' }).default('false');
