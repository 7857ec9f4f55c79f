import type { PrismaClient } from '@wallet-api/core/db';

export interface ListedToken {
  chainId: string;
  address: string;
  name: string;
  symbol: string;
}

export interface ListedTokenStore {
  /** Fungible tokens (ERC-20s and SPL mints) in token metadata on `chainIds`, at most `limit`, oldest first. */
  fungibleTokens(chainIds: readonly string[], limit: number): Promise<ListedToken[]>;
}

export function createListedTokenStore(prisma: PrismaClient): ListedTokenStore {
  return {
    async fungibleTokens(chainIds, limit) {
      return prisma.tokenMetadata.findMany({
        where: { interface: 'erc20', chainId: { in: [...chainIds] } },
        select: { chainId: true, address: true, name: true, symbol: true },
        orderBy: [{ createdAt: 'asc' }, { chainId: 'asc' }, { address: 'asc' }],
        take: limit,
      });
    },
  };
}
