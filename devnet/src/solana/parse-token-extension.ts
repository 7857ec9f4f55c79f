// jsonParsed Token-2022 extension instructions the devnet world sends (MetadataPointer,
// ScaledUiAmount) and the token-metadata interface instructions, as agave's parse_token
// extension modules write them. Other extension instructions return undefined (not parsed here).
import { NotParsable, Reader, need, signers, type Parsed } from './instruction-reader.js';
import { rustF64Display } from './ui-amount.js';

const metadataPointerExtension = 39;
const scaledUiAmountExtension = 43;

/** Token-2022 extension instructions (the first byte is the extension's instruction tag). */
export function parseTokenExtension(data: Uint8Array, accounts: readonly string[]): Parsed | undefined {
  const reader = new Reader(data);
  const tag = reader.u8();
  const a = (index: number) => accounts[index]!;
  if (tag === metadataPointerExtension) {
    const kind = reader.u8();
    if (kind === 0) {
      const authority = reader.optionalPubkey();
      const metadataAddress = reader.optionalPubkey();
      reader.end();
      need(accounts, 1);
      return { type: 'initializeMetadataPointer', info: { mint: a(0), ...(authority ? { authority } : {}), ...(metadataAddress ? { metadataAddress } : {}) } };
    }
    if (kind === 1) {
      const metadataAddress = reader.optionalPubkey();
      reader.end();
      need(accounts, 2);
      return {
        type: 'updateMetadataPointer',
        info: signers({ mint: a(0), ...(metadataAddress ? { metadataAddress } : {}) }, accounts, 1, 'authority', 'multisigAuthority'),
      };
    }
    throw new NotParsable();
  }
  if (tag === scaledUiAmountExtension) {
    const kind = reader.u8();
    if (kind === 0) {
      const authority = reader.optionalPubkey();
      const multiplier = reader.f64();
      reader.end();
      need(accounts, 1);
      return { type: 'initializeScaledUiAmountConfig', info: { mint: a(0), authority, multiplier: rustF64Display(multiplier) } };
    }
    if (kind === 1) {
      const multiplier = reader.f64();
      const effective = reader.i64();
      reader.end();
      need(accounts, 2);
      return {
        type: 'updateMultiplier',
        info: signers(
          { mint: a(0), newMultiplier: rustF64Display(multiplier), newMultiplierTimestamp: effective },
          accounts,
          1,
          'authority',
          'multisigAuthority',
        ),
      };
    }
    throw new NotParsable();
  }
  return undefined;
}

/** sha256("spl_token_metadata_interface:<name>")[..8] of each instruction. */
const metadataDiscriminators = {
  initialize: [210, 225, 30, 162, 88, 184, 77, 141],
  updateField: [221, 233, 49, 45, 181, 202, 220, 200],
  removeKey: [234, 18, 32, 56, 89, 141, 37, 181],
  updateAuthority: [215, 228, 166, 228, 84, 100, 86, 123],
  emit: [250, 166, 180, 250, 13, 12, 184, 70],
} as const;

const fieldNames = ['name', 'symbol', 'uri'];

/** Token-metadata interface instructions (served by Token-2022 for mints that carry TokenMetadata). */
export function parseTokenMetadata(data: Uint8Array, accounts: readonly string[]): Parsed | undefined {
  const found = Object.entries(metadataDiscriminators).find(([, bytes]) => data.length >= 8 && bytes.every((byte, index) => data[index] === byte));
  if (!found) return undefined;
  const reader = new Reader(data.subarray(8));
  const a = (index: number) => accounts[index]!;
  switch (found[0]) {
    case 'initialize': {
      const name = reader.borshString();
      const symbol = reader.borshString();
      const uri = reader.borshString();
      reader.end();
      need(accounts, 4);
      return { type: 'initializeTokenMetadata', info: { metadata: a(0), updateAuthority: a(1), mint: a(2), mintAuthority: a(3), name, symbol, uri } };
    }
    case 'updateField': {
      const fieldTag = reader.u8();
      const field = fieldTag === 3 ? reader.borshString() : fieldNames[fieldTag];
      if (field === undefined) throw new NotParsable();
      const value = reader.borshString();
      reader.end();
      need(accounts, 2);
      return { type: 'updateTokenMetadataField', info: { metadata: a(0), updateAuthority: a(1), field, value } };
    }
    case 'removeKey': {
      const idempotent = reader.bool();
      const key = reader.borshString();
      reader.end();
      need(accounts, 2);
      return { type: 'removeTokenMetadataKey', info: { metadata: a(0), updateAuthority: a(1), key, idempotent } };
    }
    case 'updateAuthority': {
      const newAuthority = reader.optionalPubkey();
      reader.end();
      need(accounts, 2);
      return { type: 'updateTokenMetadataAuthority', info: { metadata: a(0), updateAuthority: a(1), newAuthority } };
    }
    default: {
      const start = reader.bool() ? reader.u64() : undefined;
      const end = reader.bool() ? reader.u64() : undefined;
      reader.end();
      need(accounts, 1);
      return { type: 'emitTokenMetadata', info: { metadata: a(0), ...(start !== undefined ? { start } : {}), ...(end !== undefined ? { end } : {}) } };
    }
  }
}
