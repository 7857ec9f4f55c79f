// The byte reader and helpers the jsonParsed instruction parsers share: a parser that meets
// data it cannot read throws NotParsable, and the instruction falls back to partially decoded.
import { getBase58Decoder } from '@solana/kit';

const base58 = getBase58Decoder();

export class NotParsable extends Error {}

/** Little-endian reader that fails (not parsable) past the end, as the Rust unpackers do. */
export class Reader {
  private offset = 0;
  constructor(private readonly data: Uint8Array) {}
  private take(length: number): Uint8Array {
    if (this.offset + length > this.data.length) throw new NotParsable();
    const bytes = this.data.subarray(this.offset, this.offset + length);
    this.offset += length;
    return bytes;
  }
  u8(): number {
    return this.take(1)[0]!;
  }
  u32(): number {
    const bytes = this.take(4);
    return new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true);
  }
  u64(): bigint {
    const bytes = this.take(8);
    return new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0, true);
  }
  pubkey(): string {
    return base58.decode(this.take(32));
  }
  /** bincode String: u64 length, then UTF-8. */
  string(): string {
    const length = this.u64();
    if (length > BigInt(this.data.length)) throw new NotParsable();
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(this.take(Number(length)));
    } catch {
      throw new NotParsable();
    }
  }
  /** spl-token `COption<Pubkey>` in instruction data: a 0/1 byte, then 32 bytes when 1. */
  optionPubkey(): string | null {
    const tag = this.u8();
    if (tag === 0) return null;
    if (tag === 1) return this.pubkey();
    throw new NotParsable();
  }
  rest(): Uint8Array {
    return this.take(this.data.length - this.offset);
  }
  f64(): number {
    const bytes = this.take(8);
    return new DataView(bytes.buffer, bytes.byteOffset, 8).getFloat64(0, true);
  }
  i64(): bigint {
    const bytes = this.take(8);
    return new DataView(bytes.buffer, bytes.byteOffset, 8).getBigInt64(0, true);
  }
  bool(): boolean {
    const value = this.u8();
    if (value > 1) throw new NotParsable();
    return value === 1;
  }
  /** `OptionalNonZeroPubkey`: 32 bytes, all zeros for none. */
  optionalPubkey(): string | null {
    const bytes = this.take(32);
    return bytes.some((byte) => byte !== 0) ? base58.decode(bytes) : null;
  }
  /** borsh String: u32 length, then UTF-8. */
  borshString(): string {
    const length = this.u32();
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(this.take(length));
    } catch (error) {
      if (error instanceof NotParsable) throw error;
      throw new NotParsable();
    }
  }
  /** Pod and borsh decoders take the exact size: nothing may be left over. */
  end(): void {
    if (this.offset !== this.data.length) throw new NotParsable();
  }
}

export type Info = Record<string, unknown>;
export interface Parsed {
  type: string;
  info?: Info;
}

export function need(accounts: readonly string[], count: number): void {
  if (accounts.length < count) throw new NotParsable();
}

/** `parse_signers`: one authority, or a multisig and its signers. */
export function signers(info: Info, accounts: readonly string[], lastNonSigner: number, ownerField: string, multisigField: string): Info {
  const owner = accounts[lastNonSigner];
  if (accounts.length > lastNonSigner + 1) {
    if (owner !== undefined) info[multisigField] = owner;
    info.signers = accounts.slice(lastNonSigner + 1);
  } else if (owner !== undefined) {
    info[ownerField] = owner;
  }
  return info;
}
