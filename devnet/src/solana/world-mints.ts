// The world's token mints and the instructions that create and move their tokens, for both token
// programs: SPL Token for the classic mints, Token-2022 for those with extensions (ScaledUiAmount,
// on-chain TokenMetadata behind a MetadataPointer).
import type { Address, Instruction, KeyPairSigner } from '@solana/kit';
import { getCreateAccountInstruction } from '@solana-program/system';
import * as splToken from '@solana-program/token';
import * as token2022 from '@solana-program/token-2022';

export type SolanaMintKey = 'usdc' | 'bonk' | 'scaled' | 'meta' | 'spam';
export type SolanaTokenProgram = 'spl-token' | 'token-2022';

export interface SolanaMintSpec {
  key: SolanaMintKey;
  program: SolanaTokenProgram;
  decimals: number;
  symbol: string;
  name: string;
  /** On-chain TokenMetadata (Token-2022 only): the mint points to itself for its name, symbol and uri. */
  metadataUri?: string;
  /** ScaledUiAmount extension (Token-2022 only), starting at multiplier 1. */
  scaled?: boolean;
  /** Real asset (the registry's verified list) or an unsolicited look-alike (its spam list). */
  kind: 'stable' | 'standard' | 'spam';
}

export const solanaMintSpecs: readonly SolanaMintSpec[] = [
  { key: 'usdc', program: 'spl-token', decimals: 6, symbol: 'USDC', name: 'USD Coin', kind: 'stable' },
  { key: 'bonk', program: 'spl-token', decimals: 5, symbol: 'BONK', name: 'Bonk', kind: 'standard' },
  {
    key: 'scaled',
    program: 'token-2022',
    decimals: 6,
    symbol: 'DSTKx',
    name: 'Devnet Stock xStock',
    metadataUri: 'https://metadata.devnet.invalid/solana/dstkx.json',
    scaled: true,
    kind: 'standard',
  },
  {
    key: 'meta',
    program: 'token-2022',
    decimals: 9,
    symbol: 'DMETA',
    name: 'Devnet Meta Token',
    metadataUri: 'https://metadata.devnet.invalid/solana/dmeta.json',
    kind: 'standard',
  },
  {
    key: 'spam',
    program: 'token-2022',
    decimals: 0,
    symbol: 'REWARD',
    name: 'Claim reward at sol-rewards.xyz',
    metadataUri: 'https://sol-rewards.xyz/claim.json',
    kind: 'spam',
  },
];

/** A created mint: its spec, address, program and the separate key that mints (and updates it). */
export interface SolanaMint extends SolanaMintSpec {
  address: Address;
  programAddress: Address;
  authority: KeyPairSigner;
}

export function tokenProgramAddress(program: SolanaTokenProgram): Address {
  return program === 'spl-token' ? splToken.TOKEN_PROGRAM_ADDRESS : token2022.TOKEN_2022_PROGRAM_ADDRESS;
}

/**
 * Instructions that create and initialize `mint` (paid by its authority): account creation, the
 * extensions' initializers, InitializeMint, then TokenMetadata, which reallocates the account (so
 * it is created with the rent of its final size but the space of the fixed-size part).
 */
export function createMintInstructions(spec: SolanaMintSpec, mint: KeyPairSigner, authority: KeyPairSigner, rentFor: (space: bigint) => bigint): Instruction[] {
  if (spec.program === 'spl-token') {
    const space = BigInt(splToken.getMintSize());
    return [
      getCreateAccountInstruction({ payer: authority, newAccount: mint, lamports: rentFor(space), space, programAddress: splToken.TOKEN_PROGRAM_ADDRESS }),
      splToken.getInitializeMint2Instruction({ mint: mint.address, decimals: spec.decimals, mintAuthority: authority.address }),
    ];
  }
  const fixed: token2022.ExtensionArgs[] = [];
  const initializers: Instruction[] = [];
  if (spec.scaled) {
    fixed.push(
      token2022.extension('ScaledUiAmountConfig', { authority: authority.address, multiplier: 1, newMultiplierEffectiveTimestamp: 0n, newMultiplier: 1 }),
    );
    initializers.push(token2022.getInitializeScaledUiAmountMintInstruction({ mint: mint.address, authority: authority.address, multiplier: 1 }));
  }
  const variable: token2022.ExtensionArgs[] = [];
  if (spec.metadataUri !== undefined) {
    fixed.push(token2022.extension('MetadataPointer', { authority: authority.address, metadataAddress: mint.address }));
    initializers.push(token2022.getInitializeMetadataPointerInstruction({ mint: mint.address, authority: authority.address, metadataAddress: mint.address }));
    variable.push(
      token2022.extension('TokenMetadata', {
        updateAuthority: authority.address,
        mint: mint.address,
        name: spec.name,
        symbol: spec.symbol,
        uri: spec.metadataUri,
        additionalMetadata: new Map(),
      }),
    );
  }
  const space = BigInt(token2022.getMintSize(fixed));
  const finalSpace = BigInt(token2022.getMintSize([...fixed, ...variable]));
  const instructions: Instruction[] = [
    getCreateAccountInstruction({
      payer: authority,
      newAccount: mint,
      lamports: rentFor(finalSpace),
      space,
      programAddress: token2022.TOKEN_2022_PROGRAM_ADDRESS,
    }),
    ...initializers,
    token2022.getInitializeMintInstruction({ mint: mint.address, decimals: spec.decimals, mintAuthority: authority.address }),
  ];
  if (spec.metadataUri !== undefined) {
    instructions.push(
      token2022.getInitializeTokenMetadataInstruction({
        metadata: mint.address,
        updateAuthority: authority.address,
        mint: mint.address,
        mintAuthority: authority,
        name: spec.name,
        symbol: spec.symbol,
        uri: spec.metadataUri,
      }),
    );
  }
  return instructions;
}

/** Associated token account of `owner` for `mint` (cached: the derivation hashes). */
export function createAtaLookup(): (owner: Address, mint: SolanaMint) => Promise<Address> {
  const cache = new Map<string, Address>();
  return async (owner, mint) => {
    const key = `${owner}/${mint.address}`;
    let ata = cache.get(key);
    if (!ata) {
      [ata] = await splToken.findAssociatedTokenPda({ owner, mint: mint.address, tokenProgram: mint.programAddress });
      cache.set(key, ata);
    }
    return ata;
  };
}

/** CreateIdempotent of the associated token program (its CPIs to the system and token programs are inner instructions). */
export function createAtaInstruction(payer: KeyPairSigner, owner: Address, ata: Address, mint: SolanaMint): Instruction {
  return splToken.getCreateAssociatedTokenIdempotentInstruction({ payer, ata, owner, mint: mint.address, tokenProgram: mint.programAddress });
}

export function mintToInstruction(mint: SolanaMint, destination: Address, amount: bigint): Instruction {
  const input = { mint: mint.address, token: destination, mintAuthority: mint.authority, amount, decimals: mint.decimals };
  return mint.program === 'spl-token' ? splToken.getMintToCheckedInstruction(input) : token2022.getMintToCheckedInstruction(input);
}

export function transferCheckedInstruction(mint: SolanaMint, source: Address, destination: Address, owner: KeyPairSigner, amount: bigint): Instruction {
  const input = { source, mint: mint.address, destination, authority: owner, amount, decimals: mint.decimals };
  return mint.program === 'spl-token' ? splToken.getTransferCheckedInstruction(input) : token2022.getTransferCheckedInstruction(input);
}

/** The unchecked Transfer (no mint, no decimals), as older clients still send it. */
export function transferInstruction(mint: SolanaMint, source: Address, destination: Address, owner: KeyPairSigner, amount: bigint): Instruction {
  const input = { source, destination, authority: owner, amount };
  return mint.program === 'spl-token' ? splToken.getTransferInstruction(input) : token2022.getTransferInstruction(input);
}

/** Closes an empty token account, its rent going back to the owner. */
export function closeAccountInstruction(mint: SolanaMint, account: Address, owner: KeyPairSigner): Instruction {
  const input = { account, destination: owner.address, owner };
  return mint.program === 'spl-token' ? splToken.getCloseAccountInstruction(input) : token2022.getCloseAccountInstruction(input);
}

export function updateMultiplierInstruction(mint: SolanaMint, multiplier: number, effectiveTimestamp: number): Instruction {
  return token2022.getUpdateMultiplierScaledUiMintInstruction({
    mint: mint.address,
    authority: mint.authority,
    multiplier,
    effectiveTimestamp: BigInt(effectiveTimestamp),
  });
}

/** Raw amount of a token account (the u64 at byte 64 in both programs' layouts), or undefined when the account does not exist. */
export function tokenAccountAmount(data: Uint8Array | undefined): bigint | undefined {
  if (!data || data.length < 72) return undefined;
  return new DataView(data.buffer, data.byteOffset + 64, 8).getBigUint64(0, true);
}
