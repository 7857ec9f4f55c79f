// SPL Token and Token-2022 account layouts, read the way `StateWithExtensions::unpack` reads
// them: a 165-byte account (or 82-byte mint), then for Token-2022 an account-type byte at 165
// and type-length-value extensions from 166.
import { getAddressDecoder, type Address } from '@solana/kit';
import type { InterestBearing, ScaledUiAmount } from './ui-amount.js';

export const tokenProgramAddress = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA' as Address;
export const token2022ProgramAddress = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb' as Address;
export const nativeMintAddress = 'So11111111111111111111111111111111111111112' as Address;

const accountLength = 165;
const mintLength = 82;
const multisigLength = 355;
const accountTypeMint = 1;
const accountTypeAccount = 2;

export function isTokenProgram(owner: string): boolean {
  return owner === tokenProgramAddress || owner === token2022ProgramAddress;
}

const addressDecoder = getAddressDecoder();

function address(data: Uint8Array, offset: number): string {
  return addressDecoder.decode(data.subarray(offset, offset + 32));
}

/** `OptionalNonZeroPubkey`: all zeros is None. */
export function optionalAddress(data: Uint8Array, offset: number): string | null {
  const bytes = data.subarray(offset, offset + 32);
  return bytes.length === 32 && bytes.some((byte) => byte !== 0) ? addressDecoder.decode(bytes) : null;
}

/** `COption<Pubkey>`: a u32 tag then 32 bytes. */
function coptionAddress(data: Uint8Array, offset: number): string | null {
  return view(data).getUint32(offset, true) === 1 ? address(data, offset + 4) : null;
}

function view(data: Uint8Array): DataView {
  return new DataView(data.buffer, data.byteOffset, data.byteLength);
}

function u64(data: Uint8Array, offset: number): bigint {
  return view(data).getBigUint64(offset, true);
}

export interface TokenExtension {
  type: number;
  data: Uint8Array;
}

/** The TLV entries after the account-type byte, up to the first uninitialized type. */
function extensions(data: Uint8Array): TokenExtension[] | undefined {
  const found: TokenExtension[] = [];
  let offset = accountLength + 1;
  while (offset + 4 <= data.length) {
    const type = view(data).getUint16(offset, true);
    if (type === 0) break;
    const length = view(data).getUint16(offset + 2, true);
    const start = offset + 4;
    if (start + length > data.length) return undefined;
    found.push({ type, data: data.subarray(start, start + length) });
    offset = start + length;
  }
  return found;
}

export type AccountState = 'uninitialized' | 'initialized' | 'frozen';
const accountStates: AccountState[] = ['uninitialized', 'initialized', 'frozen'];

export interface TokenAccountState {
  mint: string;
  owner: string;
  amount: bigint;
  delegate: string | null;
  state: AccountState;
  /** Rent-exempt reserve of a native (wrapped SOL) account. */
  nativeReserve: bigint | null;
  delegatedAmount: bigint;
  closeAuthority: string | null;
  extensions: TokenExtension[];
}

export interface MintState {
  mintAuthority: string | null;
  supply: bigint;
  decimals: number;
  isInitialized: boolean;
  freezeAuthority: string | null;
  extensions: TokenExtension[];
}

export interface MultisigState {
  m: number;
  n: number;
  isInitialized: boolean;
  signers: string[];
}

/** `StateWithExtensions::<Account>::unpack`: an initialized token account, or undefined. */
export function parseTokenAccount(data: Uint8Array): TokenAccountState | undefined {
  if (data.length < accountLength || data.length === multisigLength) return undefined;
  const state = data[108] ?? 0;
  if (state === 0 || state > 2) return undefined;
  let found: TokenExtension[] = [];
  if (data.length > accountLength) {
    if (data[accountLength] !== accountTypeAccount) return undefined;
    const parsed = extensions(data);
    if (!parsed) return undefined;
    found = parsed;
  }
  const isNative = view(data).getUint32(109, true) === 1;
  return {
    mint: address(data, 0),
    owner: address(data, 32),
    amount: u64(data, 64),
    delegate: coptionAddress(data, 72),
    state: accountStates[state]!,
    nativeReserve: isNative ? u64(data, 113) : null,
    delegatedAmount: u64(data, 121),
    closeAuthority: coptionAddress(data, 129),
    extensions: found,
  };
}

/** `StateWithExtensions::<Mint>::unpack`: an initialized mint, or undefined. */
export function parseMint(data: Uint8Array): MintState | undefined {
  if (data.length < mintLength || data.length === multisigLength) return undefined;
  if (data[45] !== 1) return undefined;
  let found: TokenExtension[] = [];
  if (data.length > mintLength) {
    if (data.length <= accountLength || data[accountLength] !== accountTypeMint) return undefined;
    if (data.subarray(mintLength, accountLength).some((byte) => byte !== 0)) return undefined;
    const parsed = extensions(data);
    if (!parsed) return undefined;
    found = parsed;
  }
  return {
    mintAuthority: coptionAddress(data, 0),
    supply: u64(data, 36),
    decimals: data[44]!,
    isInitialized: true,
    freezeAuthority: coptionAddress(data, 46),
    extensions: found,
  };
}

export function parseMultisig(data: Uint8Array): MultisigState | undefined {
  if (data.length !== multisigLength || data[2] !== 1) return undefined;
  const signers: string[] = [];
  for (let index = 0; index < 11; index++) {
    const signer = optionalAddress(data, 3 + index * 32);
    if (signer) signers.push(signer);
  }
  return { m: data[0]!, n: data[1]!, isInitialized: true, signers };
}

export const extensionType = {
  transferFeeConfig: 1,
  transferFeeAmount: 2,
  mintCloseAuthority: 3,
  defaultAccountState: 6,
  immutableOwner: 7,
  memoTransfer: 8,
  nonTransferable: 9,
  interestBearingConfig: 10,
  cpiGuard: 11,
  permanentDelegate: 12,
  nonTransferableAccount: 13,
  transferHook: 14,
  transferHookAccount: 15,
  metadataPointer: 18,
  tokenMetadata: 19,
  groupPointer: 20,
  tokenGroup: 21,
  groupMemberPointer: 22,
  tokenGroupMember: 23,
  scaledUiAmount: 25,
  pausable: 26,
  pausableAccount: 27,
} as const;

export function scaledUiAmountOf(mint: MintState): ScaledUiAmount | undefined {
  const extension = mint.extensions.find((entry) => entry.type === extensionType.scaledUiAmount);
  if (!extension || extension.data.length < 56) return undefined;
  const data = view(extension.data);
  return {
    authority: optionalAddress(extension.data, 0),
    multiplier: data.getFloat64(32, true),
    newMultiplierEffectiveTimestamp: data.getBigInt64(40, true),
    newMultiplier: data.getFloat64(48, true),
  };
}

export function interestBearingOf(mint: MintState): InterestBearing | undefined {
  const extension = mint.extensions.find((entry) => entry.type === extensionType.interestBearingConfig);
  if (!extension || extension.data.length < 52) return undefined;
  const data = view(extension.data);
  return {
    rateAuthority: optionalAddress(extension.data, 0),
    initializationTimestamp: data.getBigInt64(32, true),
    preUpdateAverageRate: data.getInt16(40, true),
    lastUpdateTimestamp: data.getBigInt64(42, true),
    currentRate: data.getInt16(50, true),
  };
}
