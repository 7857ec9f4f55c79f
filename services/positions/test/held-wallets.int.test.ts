import { setupChangeVersions, testLogger } from '@wallet-api/core/testing';
import { createHeldWallets } from '../src/positions/held-wallets.js';
import type { WalletBalance } from '../src/store/balance-store.js';
import type { ProtocolSnapshot } from '../src/store/snapshot-store.js';

// What a wallet holds, kept in memory under real change tokens in Redis: price moves read nothing
// again, a change of the wallet's holdings or a rollback reads it again, and another wallet's
// change leaves it kept. The stores count their reads; their answers change between reads, so an
// answer kept too long is seen.

const connection = setupChangeVersions();
const { versions } = connection;
afterAll(() => connection.close());

function countingStores() {
  const reads = { balances: 0, snapshots: 0 };
  let amount = 1n;
  return {
    reads,
    setAmount: (value: bigint) => (amount = value),
    balances: {
      async walletBalances(_wallet: string, chainIds: readonly string[]): Promise<WalletBalance[]> {
        reads.balances++;
        return chainIds.map((chainId) => ({ chainId, asset: '', amount, updatedBlock: 1n, updatedAt: 1n }));
      },
    },
    snapshots: {
      async find(wallet: string, chainIds: readonly string[]): Promise<ProtocolSnapshot[]> {
        reads.snapshots++;
        return chainIds.map((chainId) => ({ chainId, wallet, positions: [], blockNumber: 1n, readAt: new Date(0), stale: false }));
      },
    },
  };
}

const wallet = '0x00000000000000000000000000000000000000aa';
const other = '0x00000000000000000000000000000000000000bb';

test('price moves read nothing again; a holdings change or a rollback reads the wallet again', async () => {
  const stores = countingStores();
  const held = createHeldWallets({ ...stores, logger: testLogger, maxBytes: 1024 * 1024 });
  const read = async () => held.read(wallet, ['ethereum'], await versions.walletTokens(wallet, ['holdings']));

  expect((await read()).balances[0]!.amount).toBe(1n);
  for (let move = 0; move < 5; move++) {
    await versions.pricesChanged();
    await read();
  }
  await versions.walletsChanged([other], 'holdings');
  await read();
  expect(stores.reads).toEqual({ balances: 1, snapshots: 1 });

  stores.setAmount(2n);
  await versions.walletsChanged([wallet], 'holdings');
  expect((await read()).balances[0]!.amount).toBe(2n);
  stores.setAmount(3n);
  await versions.everythingChanged();
  expect((await read()).balances[0]!.amount).toBe(3n);
  expect(stores.reads).toEqual({ balances: 3, snapshots: 3 });
});

test('each chain selection is kept apart, and without tokens every read goes to the stores', async () => {
  const stores = countingStores();
  const held = createHeldWallets({ ...stores, logger: testLogger, maxBytes: 1024 * 1024 });
  const tokens = await versions.walletTokens(wallet, ['holdings']);
  expect((await held.read(wallet, ['ethereum'], tokens)).balances.map((balance) => balance.chainId)).toEqual(['ethereum']);
  expect((await held.read(wallet, ['ethereum', 'base'], tokens)).balances.map((balance) => balance.chainId)).toEqual(['ethereum', 'base']);
  await held.read(wallet, ['ethereum'], undefined);
  await held.read(wallet, ['ethereum'], undefined);
  expect(stores.reads.balances).toBe(4);
});
