// jsonParsed instructions, with the field names of agave's transaction-status parsers.
import { getAddressEncoder, getBase58Decoder, type Address } from '@solana/kit';
import * as token2022Program from '@solana-program/token-2022';
import { stringifyJson } from './json.js';
import { parseInstructionJson } from './parse-instruction.js';

const system = '11111111111111111111111111111111';
const token = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const token2022 = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';
const ata = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';
const memo = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr';
const computeBudget = 'ComputeBudget111111111111111111111111111111';
const [a, b, c, d, e, f] = ['A', 'B', 'C', 'D', 'E', 'F'].map((letter) => `${letter.repeat(43)}1`) as [string, string, string, string, string, string];

function u32(value: number): number[] {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setUint32(0, value, true);
  return [...bytes];
}
function u64(value: bigint): number[] {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, value, true);
  return [...bytes];
}
const key = (address: string) => [...getAddressEncoder().encode(address as Address)];
const parse = (program: string, accounts: string[], data: number[]) =>
  JSON.parse(stringifyJson(parseInstructionJson(program, accounts, new Uint8Array(data), 1)));

describe('jsonParsed instructions', () => {
  it.each([
    {
      name: 'system transfer',
      program: system,
      accounts: [a, b],
      data: [...u32(2), ...u64(1_000n)],
      parsed: { program: 'system', programId: system, parsed: { info: { destination: b, lamports: 1000, source: a }, type: 'transfer' }, stackHeight: 1 },
    },
    {
      name: 'system createAccount',
      program: system,
      accounts: [a, b],
      data: [...u32(0), ...u64(2_039_280n), ...u64(165n), ...key(token)],
      parsed: {
        program: 'system',
        programId: system,
        parsed: { info: { lamports: 2039280, newAccount: b, owner: token, source: a, space: 165 }, type: 'createAccount' },
        stackHeight: 1,
      },
    },
    {
      name: 'token transfer from a multisig',
      program: token,
      accounts: [a, b, c, d, e],
      data: [3, ...u64(42n)],
      parsed: {
        program: 'spl-token',
        programId: token,
        parsed: { info: { amount: '42', destination: b, multisigAuthority: c, signers: [d, e], source: a }, type: 'transfer' },
        stackHeight: 1,
      },
    },
    {
      name: 'Token-2022 transferChecked',
      program: token2022,
      accounts: [a, b, c, d],
      data: [12, ...u64(1_250_000n), 6],
      parsed: {
        program: 'spl-token',
        programId: token2022,
        parsed: {
          info: { authority: d, destination: c, mint: b, source: a, tokenAmount: { amount: '1250000', decimals: 6, uiAmount: 1.25, uiAmountString: '1.25' } },
          type: 'transferChecked',
        },
        stackHeight: 1,
      },
    },
    {
      name: 'setAuthority of a mint, revoked',
      program: token,
      accounts: [a, b],
      data: [6, 0, 0],
      parsed: {
        program: 'spl-token',
        programId: token,
        parsed: { info: { authority: b, authorityType: 'mintTokens', mint: a, newAuthority: null }, type: 'setAuthority' },
        stackHeight: 1,
      },
    },
    {
      name: 'initializeMint2 without freeze authority',
      program: token,
      accounts: [a],
      data: [20, 9, ...key(b), 0],
      parsed: { program: 'spl-token', programId: token, parsed: { info: { decimals: 9, mint: a, mintAuthority: b }, type: 'initializeMint2' }, stackHeight: 1 },
    },
    {
      name: 'ATA create (legacy empty data)',
      program: ata,
      accounts: [a, b, c, d, e, f],
      data: [],
      parsed: {
        program: 'spl-associated-token-account',
        programId: ata,
        parsed: { info: { account: b, mint: d, source: a, systemProgram: e, tokenProgram: f, wallet: c }, type: 'create' },
        stackHeight: 1,
      },
    },
    {
      name: 'memo',
      program: memo,
      accounts: [],
      data: [...Buffer.from('hi 🦖')],
      parsed: { program: 'spl-memo', programId: memo, parsed: 'hi 🦖', stackHeight: 1 },
    },
  ])('$name', ({ program, accounts, data, parsed }) => {
    expect(parse(program, accounts, data)).toEqual(parsed);
  });

  it.each([
    { name: 'compute budget (no parser)', program: computeBudget, accounts: [], data: [2, ...u32(10_000)] },
    { name: 'truncated system transfer', program: system, accounts: [a, b], data: [...u32(2), 1, 2] },
    { name: 'token transfer without enough accounts', program: token, accounts: [a, b], data: [3, ...u64(1n)] },
    { name: 'token instruction without accounts', program: token, accounts: [], data: [17] },
    { name: 'Token-2022 extension instruction', program: token2022, accounts: [a], data: [43, 0] },
    { name: 'ATA with trailing bytes', program: ata, accounts: [a, b, c, d, e, f], data: [1, 0] },
    { name: 'memo that is not UTF-8', program: memo, accounts: [], data: [0xff, 0xfe] },
  ])('falls back to partially decoded: $name', ({ program, accounts, data }) => {
    expect(parse(program, accounts, data)).toEqual({ programId: program, accounts, data: getBase58Decoder().decode(new Uint8Array(data)), stackHeight: 1 });
  });

  it('parses the Token-2022 extension instructions the devnet world sends, as agave names them', () => {
    const signer = { address: b as Address, signTransactions: async () => [] };
    const cases = [
      [
        token2022Program.getInitializeScaledUiAmountMintInstruction({ mint: a as Address, authority: b as Address, multiplier: 1.05 }),
        { type: 'initializeScaledUiAmountConfig', info: { authority: b, mint: a, multiplier: '1.05' } },
      ],
      [
        token2022Program.getUpdateMultiplierScaledUiMintInstruction({
          mint: a as Address,
          authority: signer,
          multiplier: 2.1,
          effectiveTimestamp: 1_790_000_000n,
        }),
        { type: 'updateMultiplier', info: { authority: b, mint: a, newMultiplier: '2.1', newMultiplierTimestamp: 1_790_000_000 } },
      ],
      [
        token2022Program.getInitializeMetadataPointerInstruction({ mint: a as Address, authority: b as Address, metadataAddress: a as Address }),
        { type: 'initializeMetadataPointer', info: { authority: b, metadataAddress: a, mint: a } },
      ],
      [
        token2022Program.getInitializeTokenMetadataInstruction({
          metadata: a as Address,
          updateAuthority: b as Address,
          mint: a as Address,
          mintAuthority: signer,
          name: 'Devnet',
          symbol: 'DEV',
          uri: 'https://x.invalid',
        }),
        {
          type: 'initializeTokenMetadata',
          info: { metadata: a, mint: a, mintAuthority: b, name: 'Devnet', symbol: 'DEV', updateAuthority: b, uri: 'https://x.invalid' },
        },
      ],
    ] as const;
    for (const [instruction, parsed] of cases) {
      const accounts = (instruction.accounts ?? []).map((account) => account.address as string);
      expect(parse(token2022, accounts, [...instruction.data!])).toEqual({ program: 'spl-token', programId: token2022, parsed, stackHeight: 1 });
    }
  });
});
