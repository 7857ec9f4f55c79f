import type { PrismaClient } from '@wallet-api/core/db';
import { ActionTransaction } from '@wallet-api/core/proto/actions';
import { TransactionRecord } from '@wallet-api/core/proto/indexer';

/** One unsigned action as stored (spec 4.5): what the wallet would sign, and how it is listed. */
export interface UnsignedAction {
  id: string;
  organizationId: string;
  /** Lowercase 0x-hex for EVM, base58 as given for Solana. */
  wallet: string;
  chainId: string;
  kind: string;
  transaction: ActionTransaction;
  record: TransactionRecord;
  createdAt: Date;
  availableAt: Date;
  expiresAt: Date;
}

/** Which organization's action: other organizations' ids are as unknown as ids never issued. */
export interface ActionKey {
  id: string;
  organizationId: string;
}

export interface UnsignedActionStore {
  insert(action: UnsignedAction): Promise<void>;
  /** The action when it is the organization's, not dismissed and not expired at `now`. */
  findOpen(key: ActionKey, now: Date): Promise<UnsignedAction | undefined>;
  /** The organization's open actions of the wallet on the chains, newest first. */
  listOpen(query: { organizationId: string; wallet: string; chainIds: readonly string[] }, now: Date): Promise<UnsignedAction[]>;
  /** Records the hashes the client reported (given ones only). */
  recordHashes(key: ActionKey, hashes: { signatureApprove?: string; signatureSwap?: string }): Promise<void>;
  dismiss(key: ActionKey, now: Date): Promise<void>;
}

type Row = Awaited<ReturnType<PrismaClient['unsignedAction']['findFirst']>> & {};

const fromRow = (row: Row): UnsignedAction => ({
  id: row.id,
  organizationId: row.organizationId,
  wallet: row.wallet,
  chainId: row.chainId,
  kind: row.kind,
  transaction: ActionTransaction.fromJSON(row.transaction),
  record: TransactionRecord.decode(row.record),
  createdAt: row.createdAt,
  availableAt: row.availableAt,
  expiresAt: row.expiresAt,
});

const open = (now: Date) => ({ dismissedAt: null, expiresAt: { gt: now } });

export function createUnsignedActionStore(prisma: PrismaClient): UnsignedActionStore {
  return {
    async insert(action) {
      await prisma.unsignedAction.create({
        data: {
          id: action.id,
          organizationId: action.organizationId,
          wallet: action.wallet,
          chainId: action.chainId,
          kind: action.kind,
          transaction: ActionTransaction.toJSON(action.transaction) as object,
          record: Buffer.from(TransactionRecord.encode(action.record).finish()),
          createdAt: action.createdAt,
          availableAt: action.availableAt,
          expiresAt: action.expiresAt,
        },
      });
    },
    async findOpen(key, now) {
      const row = await prisma.unsignedAction.findFirst({ where: { id: key.id, organizationId: key.organizationId, ...open(now) } });
      return row ? fromRow(row) : undefined;
    },
    async listOpen(query, now) {
      const rows = await prisma.unsignedAction.findMany({
        where: { organizationId: query.organizationId, wallet: query.wallet, chainId: { in: [...query.chainIds] }, ...open(now) },
        orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
      });
      return rows.map(fromRow);
    },
    async recordHashes(key, hashes) {
      await prisma.unsignedAction.updateMany({
        where: { id: key.id, organizationId: key.organizationId },
        data: {
          ...(hashes.signatureApprove ? { signatureApprove: hashes.signatureApprove } : {}),
          ...(hashes.signatureSwap ? { signatureSwap: hashes.signatureSwap } : {}),
        },
      });
    },
    async dismiss(key, now) {
      await prisma.unsignedAction.updateMany({ where: { id: key.id, organizationId: key.organizationId, dismissedAt: null }, data: { dismissedAt: now } });
    },
  };
}
