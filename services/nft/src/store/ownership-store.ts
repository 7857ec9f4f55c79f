import { Prisma, type PrismaClient } from '@wallet-api/core/db';

export type NftStandard = 'erc721' | 'erc1155';

/** One ERC-721/1155 BalanceChange, as the indexer keys it. */
export interface NftEntry {
  chainId: string;
  blockHash: string;
  transactionIndex: number;
  wallet: string;
  contract: string;
  tokenId: string;
  standard: NftStandard;
  blockNumber: bigint;
  blockTimestamp: bigint;
  /** Signed. */
  amount: bigint;
}

export interface BlockRef {
  hash: string;
  number: bigint;
}

/** What the block and rollback topics last said about a block: newest sequence wins. */
export interface BlockState {
  chainId: string;
  blockHash: string;
  orphaned: boolean;
  sequence: bigint;
  /** Published blocks carry their number and time. */
  block?: { number: bigint; timestamp: bigint };
  ancestor?: BlockRef;
}

export interface OpeningHolding {
  contract: string;
  tokenId: string;
  standard: NftStandard;
  amount: bigint;
  changedAt: bigint;
}

/** A wallet's NFTs on a chain as the chain answered after the block with this hash. */
export interface WalletOpening {
  chainId: string;
  wallet: string;
  blockHash: string;
  blockNumber: bigint;
  blockTimestamp: bigint;
  holdings: readonly OpeningHolding[];
}

/** One NFT a wallet holds now. */
export interface Holding {
  chainId: string;
  contract: string;
  tokenId: string;
  standard: NftStandard;
  amount: bigint;
  /** Unix seconds of the newest change of the amount. */
  changedAt: bigint;
}

export interface OwnershipStore {
  /** Idempotent: a redelivered entry is recognised by its key. */
  applyEntries(entries: readonly NftEntry[]): Promise<void>;
  /** Newest sequence wins. Answers how many blocks turned from orphaned to canonical. */
  applyBlockStates(states: readonly BlockState[]): Promise<{ revived: number }>;
  /**
   * Marks the rollback's blocks orphaned and answers the openings read at one of them, which the
   * caller reads again at the common ancestor, and the wallets whose entries stopped counting.
   */
  applyRollback(
    chainId: string,
    ancestor: BlockRef,
    orphanedBlockHashes: readonly string[],
    sequence: bigint,
  ): Promise<{ reopen: { chainId: string; wallet: string }[]; wallets: string[] }>;
  /** The newest block the block topic published on the chain and no rollback orphaned since. */
  newestBlock(chainId: string): Promise<(BlockRef & { timestamp: bigint }) | undefined>;
  /** The chains among `chainIds` on which the wallet has its opening. */
  openedChains(wallet: string, chainIds: readonly string[]): Promise<Set<string>>;
  /** 'stale' when a rollback has orphaned the block it was read at: nothing is written, read again. */
  saveOpening(opening: WalletOpening): Promise<'saved' | 'stale'>;
  /** Positive holdings on the chains where the wallet is opened: opening plus counted entries after it. */
  holdings(wallet: string, chainIds: readonly string[]): Promise<Holding[]>;
}

/** Serializes opening writes and rollbacks of a chain: a rollback never misses an opening saved beside it. */
const openingLock = (chainId: string) => Prisma.sql`SELECT pg_advisory_xact_lock(hashtext(${`nft-openings:${chainId}`}))`;

export function createOwnershipStore(prisma: PrismaClient): OwnershipStore {
  return {
    async applyEntries(entries) {
      if (entries.length === 0) return;
      await prisma.nftTransferEntry.createMany({
        data: entries.map((entry) => ({ ...entry, amount: new Prisma.Decimal(entry.amount.toString()) })),
        skipDuplicates: true,
      });
    },

    async applyBlockStates(states) {
      if (states.length === 0) return { revived: 0 };
      // One row per block: the newest sequence of the batch.
      const newest = new Map<string, BlockState>();
      for (const state of states) {
        const key = `${state.chainId}|${state.blockHash}`;
        const seen = newest.get(key);
        if (!seen || seen.sequence < state.sequence) newest.set(key, state);
      }
      const rows = [...newest.values()];
      const values = Prisma.join(
        rows.map(
          (row) =>
            Prisma.sql`(${row.chainId}::text, ${row.blockHash}::text, ${row.orphaned}::boolean, ${row.sequence}::bigint, ${row.block?.number ?? null}::bigint, ${row.block?.timestamp ?? null}::bigint, ${row.ancestor?.hash ?? null}::text, ${row.ancestor?.number ?? null}::bigint)`,
        ),
      );
      const revived = await prisma.$queryRaw<{ revived: bigint }[]>`
        WITH incoming (chain_id, block_hash, orphaned, sequence, block_number, block_timestamp, ancestor_hash, ancestor_number) AS (VALUES ${values}),
        before AS (
          SELECT s.chain_id, s.block_hash FROM nft_block_states s
          JOIN incoming i ON i.chain_id = s.chain_id AND i.block_hash = s.block_hash
          WHERE s.orphaned AND NOT i.orphaned AND s.sequence < i.sequence
        ),
        written AS (
          INSERT INTO nft_block_states (chain_id, block_hash, orphaned, sequence, block_number, block_timestamp, ancestor_hash, ancestor_number)
          SELECT chain_id, block_hash, orphaned, sequence, block_number, block_timestamp, ancestor_hash, ancestor_number FROM incoming
          ON CONFLICT (chain_id, block_hash) DO UPDATE SET orphaned = EXCLUDED.orphaned, sequence = EXCLUDED.sequence,
            block_number = coalesce(EXCLUDED.block_number, nft_block_states.block_number),
            block_timestamp = coalesce(EXCLUDED.block_timestamp, nft_block_states.block_timestamp),
            ancestor_hash = EXCLUDED.ancestor_hash, ancestor_number = EXCLUDED.ancestor_number
          WHERE nft_block_states.sequence < EXCLUDED.sequence
          RETURNING 1
        )
        SELECT (SELECT count(*) FROM before) AS revived, (SELECT count(*) FROM written) AS written`;
      return { revived: Number(revived[0]?.revived ?? 0n) };
    },

    async applyRollback(chainId, ancestor, orphanedBlockHashes, sequence) {
      if (orphanedBlockHashes.length === 0) return { reopen: [], wallets: [] };
      return prisma.$transaction(async (tx) => {
        await tx.$executeRaw(openingLock(chainId));
        const values = Prisma.join(
          orphanedBlockHashes.map((hash) => Prisma.sql`(${chainId}, ${hash}, true, ${sequence}, ${ancestor.hash}, ${ancestor.number})`),
        );
        await tx.$executeRaw`
          INSERT INTO nft_block_states (chain_id, block_hash, orphaned, sequence, ancestor_hash, ancestor_number) VALUES ${values}
          ON CONFLICT (chain_id, block_hash) DO UPDATE SET orphaned = true, sequence = EXCLUDED.sequence,
            ancestor_hash = EXCLUDED.ancestor_hash, ancestor_number = EXCLUDED.ancestor_number
          WHERE nft_block_states.sequence < EXCLUDED.sequence`;
        const reopen = await tx.nftWalletOpening.findMany({
          where: { chainId, blockHash: { in: [...orphanedBlockHashes] } },
          select: { chainId: true, wallet: true },
        });
        const touched = await tx.nftTransferEntry.findMany({
          where: { chainId, blockHash: { in: [...orphanedBlockHashes] } },
          select: { wallet: true },
          distinct: ['wallet'],
        });
        return { reopen, wallets: touched.map((row) => row.wallet) };
      });
    },

    async newestBlock(chainId) {
      const row = await prisma.nftBlockState.findFirst({
        where: { chainId, orphaned: false, blockNumber: { not: null } },
        orderBy: { blockNumber: 'desc' },
        select: { blockHash: true, blockNumber: true, blockTimestamp: true },
      });
      return row ? { hash: row.blockHash, number: row.blockNumber!, timestamp: row.blockTimestamp ?? 0n } : undefined;
    },

    async openedChains(wallet, chainIds) {
      const rows = await prisma.nftWalletOpening.findMany({ where: { wallet, chainId: { in: [...chainIds] } }, select: { chainId: true } });
      return new Set(rows.map((row) => row.chainId));
    },

    async saveOpening(opening) {
      return prisma.$transaction(async (tx) => {
        await tx.$executeRaw(openingLock(opening.chainId));
        const state = await tx.nftBlockState.findUnique({ where: { chainId_blockHash: { chainId: opening.chainId, blockHash: opening.blockHash } } });
        if (state?.orphaned) return 'stale' as const;
        const key = { chainId: opening.chainId, wallet: opening.wallet };
        await tx.nftOpeningHolding.deleteMany({ where: key });
        await tx.nftWalletOpening.upsert({
          where: { chainId_wallet: key },
          create: { ...key, blockHash: opening.blockHash, blockNumber: opening.blockNumber, blockTimestamp: opening.blockTimestamp },
          update: { blockHash: opening.blockHash, blockNumber: opening.blockNumber, blockTimestamp: opening.blockTimestamp, readAt: new Date() },
        });
        if (opening.holdings.length > 0) {
          await tx.nftOpeningHolding.createMany({
            data: opening.holdings.map((holding) => ({ ...key, ...holding, amount: new Prisma.Decimal(holding.amount.toString()) })),
          });
        }
        return 'saved' as const;
      });
    },

    async holdings(wallet, chainIds) {
      if (chainIds.length === 0) return [];
      const rows = await prisma.$queryRaw<
        { chain_id: string; contract: string; token_id: string; standard: string; amount: Prisma.Decimal; changed_at: bigint }[]
      >`
        WITH opening AS (
          SELECT chain_id, block_number FROM nft_wallet_openings WHERE wallet = ${wallet} AND chain_id IN (${Prisma.join(chainIds)})
        ),
        moves AS (
          SELECT h.chain_id, h.contract, h.token_id, h.standard, h.amount, h.changed_at
          FROM nft_opening_holdings h JOIN opening o ON o.chain_id = h.chain_id
          WHERE h.wallet = ${wallet}
          UNION ALL
          SELECT e.chain_id, e.contract, e.token_id, e.standard, e.amount, e.block_timestamp
          FROM nft_transfer_entries e JOIN opening o ON o.chain_id = e.chain_id AND e.block_number > o.block_number
          LEFT JOIN nft_block_states s ON s.chain_id = e.chain_id AND s.block_hash = e.block_hash
          WHERE e.wallet = ${wallet} AND s.orphaned IS NOT TRUE
        )
        SELECT chain_id, contract, token_id, min(standard) AS standard, sum(amount) AS amount, max(changed_at)::bigint AS changed_at
        FROM moves GROUP BY chain_id, contract, token_id HAVING sum(amount) > 0`;
      return rows.map((row) => ({
        chainId: row.chain_id,
        contract: row.contract,
        tokenId: row.token_id,
        standard: row.standard as NftStandard,
        amount: BigInt(row.amount.toFixed(0)),
        changedAt: row.changed_at,
      }));
    },
  };
}
