// Accounts as the RPC writes them (`UiAccount`): lamports, data in the requested encoding, owner,
// executable, rentEpoch and space. `jsonParsed` decodes SPL Token / Token-2022 accounts, mints and
// multisigs; other owners (nonce, vote, stake, sysvars, lookup tables, loaders) fall back to
// base64 here where a node would parse them. `base64+zstd` answers uncompressed base64, as a node
// does when compression fails.
import { getBase58Decoder, getBase64Decoder } from '@solana/kit';
import type { LiteSVM } from 'litesvm';
import { readAccount, type AccountView } from './ledger-snapshot.js';
import { encodedBinaryTooLarge, invalidParams } from './rpc-errors.js';
import { enumParam, usizeParam, type Config } from './rpc-params.js';
import { mintDisplay, parseTokenAccountJson } from './token-json.js';
import { isTokenProgram, parseMint, parseTokenAccount, tokenProgramAddress } from './token-state.js';
import { sortKeys } from './parse-instruction.js';

export type AccountEncoding = 'binary' | 'base58' | 'base64' | 'jsonParsed' | 'base64+zstd';
export const accountEncodings: readonly AccountEncoding[] = ['binary', 'base58', 'base64', 'jsonParsed', 'base64+zstd'];
/** Rent-exempt accounts report u64::MAX since rent collection ended. */
export const rentEpochMax = 18_446_744_073_709_551_615n;
const maxBase58Bytes = 128;
const base58 = getBase58Decoder();
const base64 = getBase64Decoder();

export interface DataSlice {
  offset: number;
  length: number;
}

export function accountEncodingOf(config: Config, fallback: AccountEncoding): AccountEncoding {
  return enumParam(config.encoding, accountEncodings, fallback);
}

export function dataSliceOf(config: Config): DataSlice | undefined {
  const slice = config.dataSlice;
  if (slice === undefined || slice === null) return undefined;
  if (typeof slice !== 'object' || Array.isArray(slice)) throw invalidParams('Invalid params: invalid type: expected struct UiDataSliceConfig.');
  const { offset, length } = slice as Record<string, unknown>;
  return { offset: usizeParam(offset), length: usizeParam(length) };
}

function sliced(data: Uint8Array, slice: DataSlice | undefined): Uint8Array {
  if (!slice) return data;
  if (slice.offset >= data.length) return new Uint8Array(0);
  return data.subarray(slice.offset, Math.min(data.length, slice.offset + slice.length));
}

/** The mint display data a token account needs (decimals and Token-2022 scaling at the clock). */
function tokenAccountDisplay(svm: LiteSVM, data: Uint8Array) {
  const account = parseTokenAccount(data);
  if (!account) return undefined;
  const mintAccount = readAccount(svm, account.mint);
  const mint = mintAccount && isTokenProgram(mintAccount.owner) ? parseMint(mintAccount.data) : undefined;
  return mint ? mintDisplay(mint, svm.getClock().unixTimestamp) : undefined;
}

/** `{ program, parsed, space }` for a token program's account, or undefined when it does not parse. */
export function parsedTokenData(svm: LiteSVM, account: AccountView): Record<string, unknown> | undefined {
  if (!isTokenProgram(account.owner)) return undefined;
  const parsed = parseTokenAccountJson(account.data, tokenAccountDisplay(svm, account.data));
  if (!parsed) return undefined;
  return { program: account.owner === tokenProgramAddress ? 'spl-token' : 'spl-token-2022', parsed: sortKeys(parsed), space: BigInt(account.data.length) };
}

/** `UiAccount::encode` plus the RPC's base58 size check. */
export function encodeAccount(svm: LiteSVM, account: AccountView, encoding: AccountEncoding, slice: DataSlice | undefined): Record<string, unknown> {
  const bytes = sliced(account.data, slice);
  let data: unknown;
  if (encoding === 'binary' || encoding === 'base58') {
    if (bytes.length > maxBase58Bytes) throw encodedBinaryTooLarge();
    data = encoding === 'binary' ? base58.decode(bytes) : [base58.decode(bytes), 'base58'];
  } else if (encoding === 'jsonParsed') {
    data = parsedTokenData(svm, account) ?? [base64.decode(bytes), 'base64'];
  } else {
    data = [base64.decode(bytes), 'base64'];
  }
  return {
    lamports: account.lamports,
    data,
    owner: account.owner,
    executable: account.executable,
    rentEpoch: rentEpochMax,
    space: BigInt(account.data.length),
  };
}
