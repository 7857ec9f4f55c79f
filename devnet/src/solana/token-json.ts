// `jsonParsed` token accounts, mints and multisigs as the node's account decoder writes them
// (`TokenAccountType`, `UiExtension`). Confidential-transfer extensions are shown as
// `unparseableExtension` (the node decodes their ciphertexts; nothing here creates them).
import {
  extensionType,
  interestBearingOf,
  optionalAddress,
  parseMint,
  parseMultisig,
  parseTokenAccount,
  scaledUiAmountOf,
  type MintState,
  type TokenExtension,
} from './token-state.js';
import { rustF64Display, uiTokenAmount, type TokenDisplay } from './ui-amount.js';

function dataView(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function borshString(bytes: Uint8Array, offset: number): [string, number] {
  const length = dataView(bytes).getUint32(offset, true);
  const start = offset + 4;
  if (start + length > bytes.length) throw new RangeError('string past the end');
  return [new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(start, start + length)), start + length];
}

function tokenMetadata(bytes: Uint8Array): Record<string, unknown> {
  let offset = 64;
  const [name, afterName] = borshString(bytes, offset);
  const [symbol, afterSymbol] = borshString(bytes, afterName);
  const [uri, afterUri] = borshString(bytes, afterSymbol);
  offset = afterUri;
  const count = dataView(bytes).getUint32(offset, true);
  offset += 4;
  const additionalMetadata: [string, string][] = [];
  for (let index = 0; index < count; index++) {
    const [key, afterKey] = borshString(bytes, offset);
    const [value, afterValue] = borshString(bytes, afterKey);
    additionalMetadata.push([key, value]);
    offset = afterValue;
  }
  return { updateAuthority: optionalAddress(bytes, 0), mint: optionalAddress(bytes, 32), name, symbol, uri, additionalMetadata };
}

function transferFee(bytes: Uint8Array, offset: number): Record<string, unknown> {
  const data = dataView(bytes);
  return { epoch: data.getBigUint64(offset, true), maximumFee: data.getBigUint64(offset + 8, true), transferFeeBasisPoints: data.getUint16(offset + 16, true) };
}

const accountStates = ['uninitialized', 'initialized', 'frozen'];

/** One `UiExtension`: `{ extension, state? }`. */
export function uiExtension(extension: TokenExtension, mint?: MintState): Record<string, unknown> {
  const bytes = extension.data;
  const data = dataView(bytes);
  const named = (name: string, state?: Record<string, unknown>) => (state === undefined ? { extension: name } : { extension: name, state });
  try {
    switch (extension.type) {
      case extensionType.transferFeeConfig:
        return named('transferFeeConfig', {
          transferFeeConfigAuthority: optionalAddress(bytes, 0),
          withdrawWithheldAuthority: optionalAddress(bytes, 32),
          withheldAmount: data.getBigUint64(64, true),
          olderTransferFee: transferFee(bytes, 72),
          newerTransferFee: transferFee(bytes, 90),
        });
      case extensionType.transferFeeAmount:
        return named('transferFeeAmount', { withheldAmount: data.getBigUint64(0, true) });
      case extensionType.mintCloseAuthority:
        return named('mintCloseAuthority', { closeAuthority: optionalAddress(bytes, 0) });
      case extensionType.defaultAccountState:
        return named('defaultAccountState', { accountState: accountStates[bytes[0] ?? 0] ?? 'uninitialized' });
      case extensionType.immutableOwner:
        return named('immutableOwner');
      case extensionType.memoTransfer:
        return named('memoTransfer', { requireIncomingTransferMemos: bytes[0] === 1 });
      case extensionType.nonTransferable:
        return named('nonTransferable');
      case extensionType.interestBearingConfig: {
        const config = mint ? interestBearingOf(mint) : undefined;
        if (!config) break;
        return named('interestBearingConfig', {
          rateAuthority: config.rateAuthority,
          initializationTimestamp: config.initializationTimestamp,
          preUpdateAverageRate: config.preUpdateAverageRate,
          lastUpdateTimestamp: config.lastUpdateTimestamp,
          currentRate: config.currentRate,
        });
      }
      case extensionType.cpiGuard:
        return named('cpiGuard', { lockCpi: bytes[0] === 1 });
      case extensionType.permanentDelegate:
        return named('permanentDelegate', { delegate: optionalAddress(bytes, 0) });
      case extensionType.nonTransferableAccount:
        return named('nonTransferableAccount');
      case extensionType.transferHook:
        return named('transferHook', { authority: optionalAddress(bytes, 0), programId: optionalAddress(bytes, 32) });
      case extensionType.transferHookAccount:
        return named('transferHookAccount', { transferring: bytes[0] === 1 });
      case extensionType.metadataPointer:
        return named('metadataPointer', { authority: optionalAddress(bytes, 0), metadataAddress: optionalAddress(bytes, 32) });
      case extensionType.tokenMetadata:
        return named('tokenMetadata', tokenMetadata(bytes));
      case extensionType.groupPointer:
        return named('groupPointer', { authority: optionalAddress(bytes, 0), groupAddress: optionalAddress(bytes, 32) });
      case extensionType.groupMemberPointer:
        return named('groupMemberPointer', { authority: optionalAddress(bytes, 0), memberAddress: optionalAddress(bytes, 32) });
      case extensionType.tokenGroup:
        return named('tokenGroup', {
          updateAuthority: optionalAddress(bytes, 0),
          mint: optionalAddress(bytes, 32),
          size: data.getBigUint64(64, true),
          maxSize: data.getBigUint64(72, true),
        });
      case extensionType.tokenGroupMember:
        return named('tokenGroupMember', { mint: optionalAddress(bytes, 0), group: optionalAddress(bytes, 32), memberNumber: data.getBigUint64(64, true) });
      case extensionType.scaledUiAmount: {
        const config = mint ? scaledUiAmountOf(mint) : undefined;
        if (!config) break;
        return named('scaledUiAmountConfig', {
          authority: config.authority,
          multiplier: rustF64Display(config.multiplier),
          newMultiplierEffectiveTimestamp: config.newMultiplierEffectiveTimestamp,
          newMultiplier: rustF64Display(config.newMultiplier),
        });
      }
      case extensionType.pausable:
        return named('pausableConfig', { authority: optionalAddress(bytes, 0), paused: bytes[32] === 1 });
      case extensionType.pausableAccount:
        return named('pausableAccount');
      default:
        break;
    }
  } catch {
    // a malformed extension reads as unparseable, as the node's `get_extension` failing does
  }
  return { extension: 'unparseableExtension' };
}

/** The display inputs of a mint at a clock time (`SplTokenAdditionalDataV2`). */
export function mintDisplay(mint: MintState, unixTimestamp: bigint): TokenDisplay {
  const scaled = scaledUiAmountOf(mint);
  const interestBearing = interestBearingOf(mint);
  return { decimals: mint.decimals, unixTimestamp, ...(scaled ? { scaled } : {}), ...(interestBearing ? { interestBearing } : {}) };
}

/**
 * `parse_token_v3`: `{ type: 'account' | 'mint' | 'multisig', info }`, or undefined when the data
 * is none of them (or is a token account and `display` — its mint's data — is missing).
 */
export function parseTokenAccountJson(data: Uint8Array, display: TokenDisplay | undefined): Record<string, unknown> | undefined {
  const account = parseTokenAccount(data);
  if (account) {
    if (!display) return undefined;
    const info: Record<string, unknown> = {
      mint: account.mint,
      owner: account.owner,
      tokenAmount: uiTokenAmount(account.amount, display),
      delegate: account.delegate ?? undefined,
      state: account.state,
      isNative: account.nativeReserve !== null,
      rentExemptReserve: account.nativeReserve !== null ? uiTokenAmount(account.nativeReserve, display) : undefined,
      delegatedAmount: account.delegate !== null ? uiTokenAmount(account.delegatedAmount, display) : undefined,
      closeAuthority: account.closeAuthority ?? undefined,
      extensions: account.extensions.length > 0 ? account.extensions.map((extension) => uiExtension(extension)) : undefined,
    };
    return { type: 'account', info };
  }
  const mint = parseMint(data);
  if (mint) {
    const info: Record<string, unknown> = {
      mintAuthority: mint.mintAuthority,
      supply: mint.supply.toString(),
      decimals: mint.decimals,
      isInitialized: mint.isInitialized,
      freezeAuthority: mint.freezeAuthority,
      extensions: mint.extensions.length > 0 ? mint.extensions.map((extension) => uiExtension(extension, mint)) : undefined,
    };
    return { type: 'mint', info };
  }
  const multisig = parseMultisig(data);
  if (multisig) {
    return {
      type: 'multisig',
      info: { numRequiredSigners: multisig.m, numValidSigners: multisig.n, isInitialized: multisig.isInitialized, signers: multisig.signers },
    };
  }
  return undefined;
}
