import { parseDecimal } from '@wallet-api/core/solana';
import type { ScaledUiAmount } from '@wallet-api/core/proto/reference_data';
import { z } from 'zod';
import { cleanText } from './token-decode.js';

/**
 * What a mint account says about its token, from `getAccountInfo` with `encoding: 'jsonParsed'`
 * (agave's account-decoder: `parse_token.rs` and `parse_token_extension.rs`). The value is
 * `{ owner, data: { program: 'spl-token' | 'spl-token-2022', parsed: { type: 'mint', info: {
 * decimals, supply, isInitialized, mintAuthority, freezeAuthority, extensions? } }, space } }`;
 * Token-2022 extensions are `{ extension: <camelCase name>, state: {...} }`, among them
 * `tokenMetadata` (`name`, `symbol`, `uri`, ...) and `scaledUiAmountConfig` (`multiplier` and
 * `newMultiplier` as the f64s' decimal text, `newMultiplierEffectiveTimestamp` in unix seconds).
 */
export interface SolanaMint {
  program: 'spl-token' | 'spl-token-2022';
  decimals: number;
  /** From the Token-2022 `tokenMetadata` extension; undefined without one. */
  name?: string;
  symbol?: string;
  scaledUiAmount?: ScaledUiAmount;
}

// @solana/kit turns the node's u64 and i64 numbers into bigint; plain JSON (tests, recorded
// answers) has numbers. Both are taken.
const rpcInteger = z.union([z.number().int(), z.bigint()]).transform((value) => BigInt(value));

// The node prints the f64 multipliers as decimal text; a server that sends numbers is taken too.
const multiplier = z
  .union([z.string(), z.number()])
  .transform((value) => String(value).trim())
  .refine((value) => {
    try {
      return parseDecimal(value).digits > 0n;
    } catch {
      return false;
    }
  }, 'should be a positive decimal');

const scaledUiAmountState = z.object({
  multiplier,
  newMultiplier: multiplier,
  newMultiplierEffectiveTimestamp: rpcInteger,
});

const tokenMetadataState = z.object({ name: z.string(), symbol: z.string() });

const mintInfo = z.object({
  decimals: rpcInteger,
  isInitialized: z.boolean().optional(),
  extensions: z.array(z.object({ extension: z.string(), state: z.unknown().optional() })).optional(),
});

const parsedAccount = z.object({
  data: z.object({
    program: z.string(),
    parsed: z.object({ type: z.string(), info: z.unknown() }),
  }),
});

const tokenPrograms = new Set(['spl-token', 'spl-token-2022']);

/**
 * The mint in `account` (the `value` of a jsonParsed `getAccountInfo`): undefined when there is no
 * account (null) or it is not a mint (a wallet, a program, a token account, a multisig, data the
 * node could not parse). Throws when a mint's own fields do not have the documented shape: the
 * answer is then not to be trusted either way.
 */
export function parseMintAccount(account: unknown): SolanaMint | undefined {
  if (account === null || account === undefined) return undefined;
  const parsed = parsedAccount.safeParse(account);
  // Unparseable data comes back base64-encoded (`[data, 'base64']`): no token program account.
  if (!parsed.success) return undefined;
  const { program, parsed: content } = parsed.data.data;
  if (!tokenPrograms.has(program) || content.type !== 'mint') return undefined;
  const info = mintInfo.safeParse(content.info);
  if (!info.success)
    throw new Error(`mint account of unexpected shape: ${info.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
  if (info.data.isInitialized === false || info.data.decimals > 255n) return undefined;
  const mint: SolanaMint = { program: program as SolanaMint['program'], decimals: Number(info.data.decimals) };
  for (const extension of info.data.extensions ?? []) {
    if (extension.extension === 'tokenMetadata') {
      const state = tokenMetadataState.safeParse(extension.state);
      if (state.success) Object.assign(mint, { name: cleanText(state.data.name), symbol: cleanText(state.data.symbol) });
    } else if (extension.extension === 'scaledUiAmountConfig') {
      const state = scaledUiAmountState.safeParse(extension.state);
      if (!state.success)
        throw new Error(
          `scaledUiAmountConfig of unexpected shape: ${state.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
        );
      mint.scaledUiAmount = {
        multiplier: state.data.multiplier,
        newMultiplier: state.data.newMultiplier,
        newMultiplierEffectiveTimestamp: state.data.newMultiplierEffectiveTimestamp.toString(),
      };
    }
  }
  return mint;
}
