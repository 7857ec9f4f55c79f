// `jsonParsed` instructions as the node's transaction-status parsers write them, for the System
// program, SPL Token and Token-2022 (base instructions 0-24; both programs parse as `spl-token`),
// the associated token account program and SPL Memo. Anything else, and any instruction these
// parsers reject, falls back to the partially decoded form `{ programId, accounts, data }`, as
// the node falls back. Of the Token-2022 extension instructions, MetadataPointer, ScaledUiAmount
// and the token-metadata interface are parsed (parse-token-extension.ts); the others are not.
import { getBase58Decoder } from '@solana/kit';
import { NotParsable, Reader, need, signers, type Info, type Parsed } from './instruction-reader.js';
import { parseTokenExtension, parseTokenMetadata } from './parse-token-extension.js';
import { uiTokenAmount } from './ui-amount.js';

const base58 = getBase58Decoder();
export const systemProgram = '11111111111111111111111111111111';
export const associatedTokenProgram = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';
export const memoPrograms = new Set(['MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr', 'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo']);
const tokenPrograms = new Set(['TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb']);

function parseSystem(data: Uint8Array, accounts: readonly string[]): Parsed {
  const reader = new Reader(data);
  const tag = reader.u32();
  const a = (index: number) => accounts[index]!;
  switch (tag) {
    case 0: {
      const lamports = reader.u64();
      const space = reader.u64();
      const owner = reader.pubkey();
      need(accounts, 2);
      return { type: 'createAccount', info: { source: a(0), newAccount: a(1), lamports, space, owner } };
    }
    case 1: {
      const owner = reader.pubkey();
      need(accounts, 1);
      return { type: 'assign', info: { account: a(0), owner } };
    }
    case 2: {
      const lamports = reader.u64();
      need(accounts, 2);
      return { type: 'transfer', info: { source: a(0), destination: a(1), lamports } };
    }
    case 3: {
      const base = reader.pubkey();
      const seed = reader.string();
      const lamports = reader.u64();
      const space = reader.u64();
      const owner = reader.pubkey();
      need(accounts, 2);
      return { type: 'createAccountWithSeed', info: { source: a(0), newAccount: a(1), base, seed, lamports, space, owner } };
    }
    case 4:
      need(accounts, 3);
      return { type: 'advanceNonce', info: { nonceAccount: a(0), recentBlockhashesSysvar: a(1), nonceAuthority: a(2) } };
    case 5: {
      const lamports = reader.u64();
      need(accounts, 5);
      return {
        type: 'withdrawFromNonce',
        info: { nonceAccount: a(0), destination: a(1), recentBlockhashesSysvar: a(2), rentSysvar: a(3), nonceAuthority: a(4), lamports },
      };
    }
    case 6: {
      const authority = reader.pubkey();
      need(accounts, 3);
      return { type: 'initializeNonce', info: { nonceAccount: a(0), recentBlockhashesSysvar: a(1), rentSysvar: a(2), nonceAuthority: authority } };
    }
    case 7: {
      const authority = reader.pubkey();
      need(accounts, 2);
      return { type: 'authorizeNonce', info: { nonceAccount: a(0), nonceAuthority: a(1), newAuthorized: authority } };
    }
    case 8: {
      const space = reader.u64();
      need(accounts, 1);
      return { type: 'allocate', info: { account: a(0), space } };
    }
    case 9: {
      const base = reader.pubkey();
      const seed = reader.string();
      const space = reader.u64();
      const owner = reader.pubkey();
      need(accounts, 2);
      return { type: 'allocateWithSeed', info: { account: a(0), base, seed, space, owner } };
    }
    case 10: {
      const base = reader.pubkey();
      const seed = reader.string();
      const owner = reader.pubkey();
      need(accounts, 2);
      return { type: 'assignWithSeed', info: { account: a(0), base, seed, owner } };
    }
    case 11: {
      const lamports = reader.u64();
      const sourceSeed = reader.string();
      const sourceOwner = reader.pubkey();
      need(accounts, 3);
      return { type: 'transferWithSeed', info: { source: a(0), sourceBase: a(1), destination: a(2), lamports, sourceSeed, sourceOwner } };
    }
    case 12:
      need(accounts, 1);
      return { type: 'upgradeNonce', info: { nonceAccount: a(0) } };
    case 13: {
      const lamports = reader.u64();
      const space = reader.u64();
      const owner = reader.pubkey();
      if (lamports === 0n) {
        need(accounts, 1);
        return { type: 'createAccountAllowPrefund', info: { newAccount: a(0), space, owner } };
      }
      need(accounts, 2);
      return { type: 'createAccountAllowPrefund', info: { newAccount: a(0), source: a(1), lamports, space, owner } };
    }
    default:
      throw new NotParsable();
  }
}

const authorityTypes = [
  'mintTokens',
  'freezeAccount',
  'accountOwner',
  'closeAccount',
  'transferFeeConfig',
  'withheldWithdraw',
  'closeMint',
  'interestRate',
  'permanentDelegate',
  'confidentialTransferMint',
  'transferHookProgramId',
  'confidentialTransferFeeConfig',
  'metadataPointer',
  'groupPointer',
  'groupMemberPointer',
  'scaledUiAmount',
  'pause',
  'permissionedBurn',
];
const mintOwnedAuthorities = new Set(authorityTypes.filter((name) => name !== 'accountOwner' && name !== 'closeAccount'));
const extensionTypeNames = [
  'uninitialized',
  'transferFeeConfig',
  'transferFeeAmount',
  'mintCloseAuthority',
  'confidentialTransferMint',
  'confidentialTransferAccount',
  'defaultAccountState',
  'immutableOwner',
  'memoTransfer',
  'nonTransferable',
  'interestBearingConfig',
  'cpiGuard',
  'permanentDelegate',
  'nonTransferableAccount',
  'transferHook',
  'transferHookAccount',
  'confidentialTransferFeeConfig',
  'confidentialTransferFeeAmount',
  'metadataPointer',
  'tokenMetadata',
  'groupPointer',
  'tokenGroup',
  'groupMemberPointer',
  'tokenGroupMember',
  'confidentialMintBurn',
  'scaledUiAmount',
  'pausable',
  'pausableAccount',
  'permissionedBurn',
];

function checked(amount: bigint, decimals: number) {
  return uiTokenAmount(amount, { decimals });
}

function parseToken(data: Uint8Array, accounts: readonly string[]): Parsed {
  const reader = new Reader(data);
  const tag = reader.u8();
  const a = (index: number) => accounts[index]!;
  switch (tag) {
    case 0:
    case 20: {
      const decimals = reader.u8();
      const mintAuthority = reader.pubkey();
      const freezeAuthority = reader.optionPubkey();
      need(accounts, tag === 0 ? 2 : 1);
      const info: Info = { mint: a(0), decimals, mintAuthority, ...(tag === 0 ? { rentSysvar: a(1) } : {}) };
      if (freezeAuthority !== null) info.freezeAuthority = freezeAuthority;
      return { type: tag === 0 ? 'initializeMint' : 'initializeMint2', info };
    }
    case 1:
      need(accounts, 4);
      return { type: 'initializeAccount', info: { account: a(0), mint: a(1), owner: a(2), rentSysvar: a(3) } };
    case 2:
    case 19: {
      const m = reader.u8();
      need(accounts, tag === 2 ? 3 : 2);
      const first = tag === 2 ? 2 : 1;
      return {
        type: tag === 2 ? 'initializeMultisig' : 'initializeMultisig2',
        info: { multisig: a(0), ...(tag === 2 ? { rentSysvar: a(1) } : {}), signers: accounts.slice(first), m },
      };
    }
    case 3:
      need(accounts, 3);
      return {
        type: 'transfer',
        info: signers({ source: a(0), destination: a(1), amount: reader.u64().toString() }, accounts, 2, 'authority', 'multisigAuthority'),
      };
    case 4:
      need(accounts, 3);
      return { type: 'approve', info: signers({ source: a(0), delegate: a(1), amount: reader.u64().toString() }, accounts, 2, 'owner', 'multisigOwner') };
    case 5:
      need(accounts, 2);
      return { type: 'revoke', info: signers({ source: a(0) }, accounts, 1, 'owner', 'multisigOwner') };
    case 6: {
      const authorityType = authorityTypes[reader.u8()];
      if (authorityType === undefined) throw new NotParsable();
      const newAuthority = reader.optionPubkey();
      need(accounts, 2);
      const owned = mintOwnedAuthorities.has(authorityType) ? 'mint' : 'account';
      return { type: 'setAuthority', info: signers({ [owned]: a(0), authorityType, newAuthority }, accounts, 1, 'authority', 'multisigAuthority') };
    }
    case 7:
      need(accounts, 3);
      return {
        type: 'mintTo',
        info: signers({ mint: a(0), account: a(1), amount: reader.u64().toString() }, accounts, 2, 'mintAuthority', 'multisigMintAuthority'),
      };
    case 8:
      need(accounts, 3);
      return { type: 'burn', info: signers({ account: a(0), mint: a(1), amount: reader.u64().toString() }, accounts, 2, 'authority', 'multisigAuthority') };
    case 9:
      need(accounts, 3);
      return { type: 'closeAccount', info: signers({ account: a(0), destination: a(1) }, accounts, 2, 'owner', 'multisigOwner') };
    case 10:
    case 11:
      need(accounts, 3);
      return {
        type: tag === 10 ? 'freezeAccount' : 'thawAccount',
        info: signers({ account: a(0), mint: a(1) }, accounts, 2, 'freezeAuthority', 'multisigFreezeAuthority'),
      };
    case 12:
    case 13: {
      const amount = reader.u64();
      const decimals = reader.u8();
      need(accounts, 4);
      const third = tag === 12 ? { destination: a(2) } : { delegate: a(2) };
      const info = { source: a(0), mint: a(1), ...third, tokenAmount: checked(amount, decimals) };
      return tag === 12
        ? { type: 'transferChecked', info: signers(info, accounts, 3, 'authority', 'multisigAuthority') }
        : { type: 'approveChecked', info: signers(info, accounts, 3, 'owner', 'multisigOwner') };
    }
    case 14: {
      const amount = reader.u64();
      const decimals = reader.u8();
      need(accounts, 3);
      return {
        type: 'mintToChecked',
        info: signers({ mint: a(0), account: a(1), tokenAmount: checked(amount, decimals) }, accounts, 2, 'mintAuthority', 'multisigMintAuthority'),
      };
    }
    case 15: {
      const amount = reader.u64();
      const decimals = reader.u8();
      need(accounts, 3);
      return {
        type: 'burnChecked',
        info: signers({ account: a(0), mint: a(1), tokenAmount: checked(amount, decimals) }, accounts, 2, 'authority', 'multisigAuthority'),
      };
    }
    case 16:
    case 18: {
      const owner = reader.pubkey();
      need(accounts, tag === 16 ? 3 : 2);
      return tag === 16
        ? { type: 'initializeAccount2', info: { account: a(0), mint: a(1), owner, rentSysvar: a(2) } }
        : { type: 'initializeAccount3', info: { account: a(0), mint: a(1), owner } };
    }
    case 17:
      need(accounts, 1);
      return { type: 'syncNative', info: { account: a(0) } };
    case 21: {
      const rest = reader.rest();
      if (rest.length % 2 !== 0) throw new NotParsable();
      const types: string[] = [];
      for (let offset = 0; offset < rest.length; offset += 2) {
        const name = extensionTypeNames[rest[offset]! | (rest[offset + 1]! << 8)];
        if (name === undefined) throw new NotParsable();
        types.push(name);
      }
      need(accounts, 1);
      return { type: 'getAccountDataSize', info: { mint: a(0), ...(types.length > 0 ? { extensionTypes: types } : {}) } };
    }
    case 22:
      need(accounts, 1);
      return { type: 'initializeImmutableOwner', info: { account: a(0) } };
    case 23: {
      const amount = reader.u64();
      need(accounts, 1);
      return { type: 'amountToUiAmount', info: { mint: a(0), amount: amount.toString() } };
    }
    case 24: {
      let uiAmount: string;
      try {
        uiAmount = new TextDecoder('utf-8', { fatal: true }).decode(reader.rest());
      } catch {
        throw new NotParsable();
      }
      need(accounts, 1);
      return { type: 'uiAmountToAmount', info: { mint: a(0), uiAmount } };
    }
    default: {
      const extension = parseTokenExtension(data, accounts);
      if (extension) return extension;
      throw new NotParsable();
    }
  }
}

/** `parse_token`: the token instruction set first, then the token-metadata interface. */
function parseTokenProgram(data: Uint8Array, accounts: readonly string[]): Parsed {
  try {
    return parseToken(data, accounts);
  } catch (error) {
    if (!(error instanceof NotParsable)) throw error;
    const metadata = parseTokenMetadata(data, accounts);
    if (metadata) return metadata;
    throw error;
  }
}

function parseAssociatedToken(data: Uint8Array, accounts: readonly string[]): Parsed {
  if (data.length > 1) throw new NotParsable();
  const kind = data.length === 0 ? 0 : data[0];
  const a = (index: number) => accounts[index]!;
  if (kind === 0 || kind === 1) {
    need(accounts, 6);
    return {
      type: kind === 0 ? 'create' : 'createIdempotent',
      info: { source: a(0), account: a(1), wallet: a(2), mint: a(3), systemProgram: a(4), tokenProgram: a(5) },
    };
  }
  if (kind === 2) {
    need(accounts, 7);
    return {
      type: 'recoverNested',
      info: { nestedSource: a(0), nestedMint: a(1), destination: a(2), nestedOwner: a(3), ownerMint: a(4), wallet: a(5), tokenProgram: a(6) },
    };
  }
  throw new NotParsable();
}

/** serde_json Values (no preserve_order) are maps sorted by key. */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object' || value.constructor !== Object) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) sorted[key] = sortKeys((value as Record<string, unknown>)[key]);
  return sorted;
}

/** `parse_ui_instruction`: the parsed form when a parser accepts it, else partially decoded. */
export function parseInstructionJson(programId: string, accounts: readonly string[], data: Uint8Array, stackHeight: number | null): Record<string, unknown> {
  try {
    let program: string | undefined;
    let parsed: unknown;
    // The system, token and ATA parsers reject an instruction without accounts (`accounts.iter().max()`).
    const keyed = accounts.length > 0;
    if (!keyed && (programId === systemProgram || tokenPrograms.has(programId) || programId === associatedTokenProgram)) throw new NotParsable();
    if (programId === systemProgram) [program, parsed] = ['system', parseSystem(data, accounts)];
    else if (tokenPrograms.has(programId)) [program, parsed] = ['spl-token', parseTokenProgram(data, accounts)];
    else if (programId === associatedTokenProgram) [program, parsed] = ['spl-associated-token-account', parseAssociatedToken(data, accounts)];
    else if (memoPrograms.has(programId)) {
      try {
        [program, parsed] = ['spl-memo', new TextDecoder('utf-8', { fatal: true }).decode(data)];
      } catch {
        throw new NotParsable();
      }
    }
    if (program !== undefined) return { program, programId, parsed: sortKeys(parsed), stackHeight };
  } catch (error) {
    if (!(error instanceof NotParsable)) throw error;
  }
  return { programId, accounts: [...accounts], data: base58.decode(data), stackHeight };
}
