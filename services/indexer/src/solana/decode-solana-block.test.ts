import { getBase58Decoder } from '@solana/kit';
import { AssetKind } from '@wallet-api/core/proto/events';
import { decodeSolanaBlock } from './decode-solana-block.js';
import type { SolanaBlockTransaction } from './solana-block.js';
import { computeBudgetProgram, systemProgram, tokenProgram } from './solana-instructions.js';

const base58 = getBase58Decoder();
const bytes = (...parts: (number | bigint)[][]) => base58.decode(Uint8Array.from(parts.flat().map(Number)));
const u64 = (value: bigint) => Array.from({ length: 8 }, (_, index) => (value >> BigInt(8 * index)) & 0xffn);
const u32 = (value: number) => [value & 0xff, (value >> 8) & 0xff, 0, 0];

const alice = 'A1ice1111111111111111111111111111111111111';
const bob = 'Bob111111111111111111111111111111111111111';
const mint = 'Mint111111111111111111111111111111111111111';
const aliceAta = 'AAta111111111111111111111111111111111111111';
const bobAta = 'BAta111111111111111111111111111111111111111';
const usdc = { kind: AssetKind.ASSET_KIND_ERC20, address: mint, tokenId: '' };
const sol = { kind: AssetKind.ASSET_KIND_NATIVE, address: '', tokenId: '' };

const tokenBalance = (accountIndex: number, owner: string, amount: string) => ({
  accountIndex,
  mint,
  owner,
  programId: tokenProgram,
  uiTokenAmount: { amount, decimals: 6 },
});

function transaction(
  signature: string,
  fields: {
    keys: string[];
    instructions: SolanaBlockTransaction['transaction']['message']['instructions'];
    meta: Partial<NonNullable<SolanaBlockTransaction['meta']>>;
  },
): SolanaBlockTransaction {
  return {
    transaction: { signatures: [signature], message: { accountKeys: fields.keys, instructions: fields.instructions, recentBlockhash: 'hash' } },
    meta: { err: null, fee: 5000n, preBalances: [], postBalances: [], preTokenBalances: [], postTokenBalances: [], innerInstructions: [], ...fields.meta },
  };
}

const solTransfer = transaction('sig-sol', {
  keys: [alice, bob, systemProgram, computeBudgetProgram],
  instructions: [
    { programIdIndex: 3, accounts: [], data: bytes([3], u64(1000n)) },
    { programIdIndex: 2, accounts: [0, 1], data: bytes(u32(2), u64(1_000_000n)) },
  ],
  meta: { fee: 5200n, preBalances: [10_000_000n, 0n, 1n, 1n], postBalances: [8_994_800n, 1_000_000n, 1n, 1n] },
});

// Alice pays rent for Bob's token account (the associated token program's inner System
// CreateAccount) and sends him 2.5 tokens with TransferChecked.
const tokenTransfer = transaction('sig-token', {
  keys: [alice, aliceAta, bobAta, bob, mint, tokenProgram, systemProgram, 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL'],
  instructions: [
    { programIdIndex: 7, accounts: [0, 2, 3, 4, 6, 5], data: '' },
    { programIdIndex: 5, accounts: [1, 4, 2, 0], data: bytes([12], u64(2_500_000n), [6]) },
  ],
  meta: {
    preBalances: [8_994_800n, 2_039_280n, 0n, 1_000_000n, 1_461_600n, 1n, 1n, 1n],
    postBalances: [6_950_520n, 2_039_280n, 2_039_280n, 1_000_000n, 1_461_600n, 1n, 1n, 1n],
    preTokenBalances: [tokenBalance(1, alice, '10000000')],
    postTokenBalances: [tokenBalance(1, alice, '7500000'), tokenBalance(2, bob, '2500000')],
    innerInstructions: [
      { index: 0, instructions: [{ programIdIndex: 6, accounts: [0, 2], data: bytes(u32(0), u64(2_039_280n), u64(165n), Array(32).fill(0)) }] },
    ],
  },
});

const failed = transaction('sig-failed', {
  keys: [bob, aliceAta, bobAta, tokenProgram],
  instructions: [{ programIdIndex: 3, accounts: [2, 1, 0], data: bytes([3], u64(9_000_000n)) }],
  meta: {
    err: { InstructionError: [0, { Custom: 1 }] },
    preBalances: [1_000_000n, 2_039_280n, 2_039_280n, 1n],
    postBalances: [995_000n, 2_039_280n, 2_039_280n, 1n],
    preTokenBalances: [tokenBalance(1, alice, '7500000'), tokenBalance(2, bob, '2500000')],
    postTokenBalances: [tokenBalance(1, alice, '7500000'), tokenBalance(2, bob, '2500000')],
  },
});

const minted = transaction('sig-mint', {
  keys: [alice, mint, bobAta, tokenProgram],
  instructions: [{ programIdIndex: 3, accounts: [1, 2, 0], data: bytes([7], u64(42n)) }],
  meta: {
    preBalances: [6_950_520n, 1_461_600n, 2_039_280n, 1n],
    postBalances: [6_945_520n, 1_461_600n, 2_039_280n, 1n],
    preTokenBalances: [tokenBalance(2, bob, '2500000')],
    postTokenBalances: [tokenBalance(2, bob, '2500042')],
  },
});

const decoded = decodeSolanaBlock({
  chainId: 'solana',
  slot: 77n,
  block: {
    blockhash: 'blockhash-77',
    previousBlockhash: 'blockhash-76',
    parentSlot: 76n,
    blockTime: 1_700_000_000n,
    transactions: [solTransfer, tokenTransfer, failed, minted],
  },
});

describe('decodeSolanaBlock', () => {
  test('a SOL transfer: the fee payer, fee, one send act and exact lamport deltas', () => {
    const [tx] = decoded.transactions;
    expect(tx).toMatchObject({
      chainId: 'solana',
      blockNumber: '77',
      blockHash: 'blockhash-77',
      blockTimestamp: '1700000000',
      transactionIndex: 0,
      hash: 'sig-sol',
      from: alice,
      to: bob,
      fee: '5200',
      value: '1000000',
      failed: false,
    });
    expect(tx!.acts).toEqual([{ id: 1, type: 'transfer', sentFrom: alice, contractAddress: '' }]);
    expect(tx!.transfers).toEqual([{ actId: 1, asset: sol, amount: '1000000', sender: alice, recipient: bob }]);
    expect(tx!.wallets).toEqual([alice, bob].sort());
    const changes = decoded.balanceChanges.filter((change) => change.transactionHash === 'sig-sol');
    expect(changes.map(({ wallet, amount }) => ({ wallet, amount }))).toEqual([
      { wallet: alice, amount: '-1005200' },
      { wallet: bob, amount: '1000000' },
    ]);
  });

  test('a token transfer names the owners of the token accounts; the rent of a new account is no payment', () => {
    const tx = decoded.transactions[1]!;
    expect(tx.transfers).toEqual([{ actId: 1, asset: usdc, amount: '2500000', sender: alice, recipient: bob }]);
    expect(tx.acts).toEqual([{ id: 1, type: 'transfer', sentFrom: alice, contractAddress: mint }]);
    const changes = decoded.balanceChanges.filter((change) => change.transactionHash === 'sig-token');
    expect(changes.map(({ wallet, asset, amount }) => ({ wallet, asset: asset!.address, amount }))).toEqual([
      { wallet: alice, asset: '', amount: '-2044280' },
      { wallet: alice, asset: mint, amount: '-2500000' },
      { wallet: bob, asset: mint, amount: '2500000' },
    ]);
  });

  test('a failed transaction moves nothing but its fee', () => {
    const tx = decoded.transactions[2]!;
    expect(tx).toMatchObject({ failed: true, fee: '5000', from: bob });
    expect(tx.transfers).toEqual([]);
    expect(tx.acts.map((act) => act.type)).toEqual(['execute']);
    expect(decoded.balanceChanges.filter((change) => change.transactionHash === 'sig-failed').map(({ wallet, amount }) => ({ wallet, amount }))).toEqual([
      { wallet: bob, amount: '-5000' },
    ]);
  });

  test('MintTo reads as a mint to the owner of the destination account', () => {
    const tx = decoded.transactions[3]!;
    expect(tx.acts).toEqual([{ id: 1, type: 'mint', sentFrom: alice, contractAddress: mint }]);
    expect(tx.transfers).toEqual([{ actId: 1, asset: usdc, amount: '42', sender: '', recipient: bob }]);
    expect(tx.to).toBe(bob);
    expect(tx.wallets).toEqual([alice, bob].sort());
  });
});
