import { createVersionedCache, unpricedVersion, type WalletChangeTokens } from '@wallet-api/core/cache';
import type { Logger } from '@wallet-api/core/logger';
import type { BalanceStore, WalletBalance } from '../store/balance-store.js';
import type { ProtocolSnapshot, SnapshotStore } from '../store/snapshot-store.js';

/** What a wallet holds on some chains, as stored: its balances and its protocol snapshots. */
export interface HeldWallet {
  balances: WalletBalance[];
  snapshots: ProtocolSnapshot[];
}

export interface HeldWallets {
  /**
   * The wallet's holdings on `chainIds`: from memory while its `holdings` token and the shared
   * `everything` token are those they were read under (`tokens`, read by the caller), otherwise
   * from PostgreSQL. Price moves change neither token, so a wallet read recently is answered
   * without a query however often prices move.
   */
  read(wallet: string, chainIds: readonly string[], tokens: WalletChangeTokens | undefined): Promise<HeldWallet>;
}

/**
 * Heap bytes of one balance row, one protocol position (a V3 position with its NFT receipt) and a
 * snapshot's own objects, measured with `process.memoryUsage()` around 10,000 wallets of each
 * shape: 10 balances and 4 positions measured 8,930 bytes a wallet; these sum to 9,280.
 */
const balanceBytes = 420;
const protocolPositionBytes = 1_170;
const snapshotBytes = 400;

export const heldWalletSize = (held: HeldWallet): number =>
  held.balances.length * balanceBytes + held.snapshots.reduce((sum, snapshot) => sum + snapshotBytes + snapshot.positions.length * protocolPositionBytes, 0);

export function createHeldWallets(options: {
  balances: Pick<BalanceStore, 'walletBalances'>;
  snapshots: Pick<SnapshotStore, 'find'>;
  logger: Logger;
  maxBytes: number;
  maxAgeMs?: number;
}): HeldWallets {
  const { balances, snapshots } = options;
  const cache = createVersionedCache<HeldWallet>({
    logger: options.logger,
    maxBytes: options.maxBytes,
    // Tokens of a wallet without changes expire after a week (ChangeVersions): nothing is kept longer.
    maxAgeMs: options.maxAgeMs ?? 24 * 60 * 60_000,
    // Never called: every read hands over the tokens it read. Without them nothing is cached.
    tokens: () => Promise.reject(new Error('held wallets are read under the caller’s tokens')),
    versionOf: unpricedVersion,
    sizeOf: heldWalletSize,
  });
  return {
    async read(wallet, chainIds, tokens) {
      const load = async () => {
        const [held, stored] = await Promise.all([balances.walletBalances(wallet, chainIds), snapshots.find(wallet, chainIds)]);
        return { balances: held, snapshots: stored };
      };
      if (tokens === undefined) return load();
      const { body } = await cache.serve({ route: 'held-wallet', wallet, data: ['holdings'], key: `${wallet}|${chainIds.join(',')}`, tokens }, load);
      return body;
    },
  };
}
