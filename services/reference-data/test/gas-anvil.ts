import { createTestClient, createWalletClient, http, type Address, type PublicClient, type TestClient, type WalletClient } from 'viem';
import { startOwnAnvil } from './own-anvil.js';

/**
 * An anvil of the test's own with its ten funded, unlocked dev accounts (the devnet's `startAnvil`
 * starts none), at a chosen hardfork: `berlin` gives blocks without a base fee. The shared chains
 * are only read; blocks are mined here.
 */
export interface GasAnvil {
  rpcUrl: string;
  client: PublicClient;
  wallet: WalletClient;
  test: TestClient<'anvil'>;
  accounts: Address[];
  /** Sends one plain transfer per fee in one block, and mines it; resolves with the block number. */
  mineBlockWith(fees: readonly ({ tip: bigint } | { gasPrice: bigint })[]): Promise<bigint>;
  stop(): Promise<void>;
}

export async function startGasAnvil(options: { hardfork?: 'berlin' | 'london' } = {}): Promise<GasAnvil> {
  const anvil = await startOwnAnvil(['--block-base-fee-per-gas', '1000000000', ...(options.hardfork ? ['--hardfork', options.hardfork] : [])]);
  const { rpcUrl, client } = anvil;
  const wallet = createWalletClient({ transport: http(rpcUrl) });
  const test = createTestClient({ mode: 'anvil', transport: http(rpcUrl) });
  const accounts = await wallet.getAddresses();
  await test.setAutomine(false);
  return {
    rpcUrl,
    client,
    wallet,
    test,
    accounts,
    async mineBlockWith(fees) {
      const base = (await client.getBlock()).baseFeePerGas;
      for (const [index, fee] of fees.entries()) {
        const account = accounts[index % accounts.length]!;
        const to = accounts[(index + 1) % accounts.length]!;
        if ('gasPrice' in fee) await wallet.sendTransaction({ account, chain: null, to, value: 1n, gas: 21_000n, gasPrice: fee.gasPrice });
        else
          await wallet.sendTransaction({
            account,
            chain: null,
            to,
            value: 1n,
            gas: 21_000n,
            maxPriorityFeePerGas: fee.tip,
            maxFeePerGas: 4n * (base ?? 0n) + fee.tip,
          });
      }
      await test.mine({ blocks: 1 });
      return client.getBlockNumber({ cacheTime: 0 });
    },
    stop: anvil.stop,
  };
}
