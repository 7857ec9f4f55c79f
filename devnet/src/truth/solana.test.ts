import { address, createSolanaRpc, getBase64Decoder, type Address } from '@solana/kit';
import { TOKEN_PROGRAM_ADDRESS, findAssociatedTokenPda } from '@solana-program/token';
import { TOKEN_2022_PROGRAM_ADDRESS, extension, getMintEncoder } from '@solana-program/token-2022';
import { createSolanaLedger } from '../solana/ledger.js';
import { startSolanaRpcServer, type SolanaRpcServer } from '../solana/rpc-server.js';
import { buildSolanaWorld } from '../solana/world.js';
import type { SolanaWorldManifest } from '../solana/world-manifest.js';
import { tokenAccountAmount } from '../solana/world-mints.js';
import { multiplierAt, solanaDisplayAmount, solanaLamports, solanaTokenHoldings, type SolanaTruthRpc } from './solana.js';

const wallet = '3PdgSBpddAhomkxND7fsedZkvWCkN2Eqwnq9Pg16Ee8b';
const usdc = 'Bnsx5wSqEytzoxsD6dAwEJSWoZUi5KcNM1NwbN33dMyk';
const scaled = '5GpbHj2VsqGPEH3pWEaTKoNP85YNT1SRm58znbCSGySA';
const spam = 'GptjyVBnrfwiDCc9nEtP9bxWqGKY7qFze9XKuUsMitQ1';

const tokenAccount = (mint: string, amount: string, decimals: number) => ({
  pubkey: 'x',
  account: { data: { parsed: { info: { mint, owner: wallet, tokenAmount: { amount, decimals } }, type: 'account' } } },
});

const scaledMintData = getBase64Decoder().decode(
  getMintEncoder().encode({
    mintAuthority: null,
    supply: 0n,
    decimals: 6,
    isInitialized: true,
    freezeAuthority: null,
    extensions: [
      extension('ScaledUiAmountConfig', { authority: address(wallet), multiplier: 1.05, newMultiplierEffectiveTimestamp: 2_000n, newMultiplier: 2.1 }),
    ],
  }),
);

/** A stand-in for `createSolanaRpc` answering the readers' calls with fixed chain state at block time `now`. */
function fakeRpc(now: number): SolanaTruthRpc {
  const reply = <T>(value: T) => ({ send: async () => value });
  return {
    getBalance: () => reply({ context: { slot: 9n }, value: 1_234n }),
    getSlot: () => reply(9n),
    getBlock: () => reply({ blockTime: BigInt(now) }),
    getTokenAccountsByOwner: (_owner: string, filter: { programId: string }) =>
      reply({
        context: { slot: 9n },
        value:
          filter.programId === TOKEN_PROGRAM_ADDRESS
            ? [tokenAccount(usdc, '1500000', 6), tokenAccount(usdc, '250000', 6)]
            : [tokenAccount(scaled, '3000000', 6), tokenAccount(spam, '0', 0)],
      }),
    getAccountInfo: () => reply({ context: { slot: 9n }, value: { owner: TOKEN_2022_PROGRAM_ADDRESS, data: [scaledMintData, 'base64'] } }),
  } as unknown as SolanaTruthRpc;
}

describe('Solana truth readers', () => {
  test('read lamports', async () => {
    expect(await solanaLamports(fakeRpc(0), wallet)).toBe(1_234n);
  });

  test('sum holdings per mint over both programs, drop empty ones, and give ScaledUiAmount mints the multiplier in force', async () => {
    expect(await solanaTokenHoldings(fakeRpc(1_999), wallet)).toEqual([
      { mint: scaled, program: 'token-2022', amount: 3_000_000n, decimals: 6, multiplier: '1.05' },
      { mint: usdc, program: 'spl-token', amount: 1_750_000n, decimals: 6 },
    ]);
    expect((await solanaTokenHoldings(fakeRpc(2_000), wallet))[0]!.multiplier).toBe('2.1');
    expect((await solanaTokenHoldings(fakeRpc(0), wallet, 5_000))[0]!.multiplier).toBe('2.1');
  });

  test.each([
    [9, '1', { multiplier: 1, newMultiplier: 1.05, newMultiplierEffectiveTimestamp: 10 }],
    [10, '1.05', { multiplier: 1, newMultiplier: 1.05, newMultiplierEffectiveTimestamp: 10 }],
    [0, '2.1', { multiplier: 1.05, newMultiplier: 2.1, newMultiplierEffectiveTimestamp: 0 }],
  ])('the multiplier in force at %d is %s', (time, expected, state) => {
    expect(multiplierAt(state, time)).toBe(expected);
  });

  test.each([
    ['1.75', { amount: 1_750_000n, decimals: 6 }],
    ['3.15', { amount: 3_000_000n, decimals: 6, multiplier: '1.05' }],
    ['0.0000021', { amount: 1n, decimals: 6, multiplier: '2.1' }],
    ['0', { amount: 0n, decimals: 0, multiplier: '1.05' }],
    ['1000', { amount: 1_000n, decimals: 0 }],
  ])('display value %s', (expected, holding) => {
    expect(solanaDisplayAmount(holding)).toBe(expected);
  });
});

describe('Solana truth readers against the devnet RPC', () => {
  const ledger = createSolanaLedger();
  let world: SolanaWorldManifest;
  let server: SolanaRpcServer;

  beforeAll(async () => {
    world = await buildSolanaWorld(ledger, { seed: 'solana-truth-test', walletCount: 6, endTimestamp: 1_790_000_000, days: 30 });
    server = await startSolanaRpcServer({ ledger, port: 0, slotIntervalMs: 0 });
  });
  afterAll(() => server.close());

  test("read what the ledger holds for every wallet, with the scaled mint's multiplier in force", async () => {
    const rpc = createSolanaRpc(server.url);
    let scaledHolders = 0;
    for (const wallet of world.wallets) {
      expect(await solanaLamports(rpc, wallet.address)).toBe(ledger.svm.getBalance(wallet.address as Address));
      const expected = [];
      for (const mint of world.mints) {
        const tokenProgram = mint.program === 'spl-token' ? TOKEN_PROGRAM_ADDRESS : TOKEN_2022_PROGRAM_ADDRESS;
        const [ata] = await findAssociatedTokenPda({ owner: wallet.address as Address, mint: mint.address as Address, tokenProgram });
        const account = ledger.svm.getAccount(ata);
        const amount = account.exists ? tokenAccountAmount(account.data as Uint8Array)! : 0n;
        if (amount > 0n)
          expected.push({
            mint: mint.address,
            program: mint.program,
            amount,
            decimals: mint.decimals,
            ...(mint.key === 'scaled' ? { multiplier: '2.1' } : {}),
          });
      }
      expected.sort((a, b) => (a.mint < b.mint ? -1 : 1));
      const holdings = await solanaTokenHoldings(rpc, wallet.address);
      expect(holdings).toEqual(expected);
      if (holdings.some((holding) => holding.multiplier !== undefined)) scaledHolders++;
    }
    expect(scaledHolders).toBeGreaterThan(0);
  });
});
