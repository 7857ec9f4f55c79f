import type { PrismaClient } from '@wallet-api/core/db';
import type { ContractTokenInterface, ContractTokenMetadata } from '../tokens/token-decode.js';

export interface StoredToken extends ContractTokenMetadata {
  chainId: string;
  /** EVM: lowercase 0x-hex. Solana: the base58 mint address as written (case-sensitive; nothing here changes its case). */
  address: string;
}

export interface TokenStore {
  /** The stored tokens among `refs`, in no particular order. */
  find(refs: readonly { chainId: string; address: string }[]): Promise<StoredToken[]>;
  findBySymbol(symbol: string, chainIds: readonly string[]): Promise<StoredToken[]>;
  /** Inserts tokens not stored yet; a row another request wrote first is kept as it is. */
  save(tokens: readonly StoredToken[]): Promise<void>;
}

const interfaces = new Set<string>(['erc20', 'erc721', 'erc1155']);

function toStored(row: { chainId: string; address: string; interface: string; name: string; symbol: string; decimals: number }): StoredToken {
  if (!interfaces.has(row.interface)) throw new Error(`token_metadata ${row.chainId} ${row.address}: unknown interface ${row.interface}`);
  return {
    chainId: row.chainId,
    address: row.address,
    interface: row.interface as ContractTokenInterface,
    name: row.name,
    symbol: row.symbol,
    decimals: row.decimals,
  };
}

export function createTokenStore(prisma: PrismaClient): TokenStore {
  return {
    async find(refs) {
      if (refs.length === 0) return [];
      const byChain = new Map<string, string[]>();
      for (const ref of refs) byChain.set(ref.chainId, [...(byChain.get(ref.chainId) ?? []), ref.address]);
      const rows = await prisma.tokenMetadata.findMany({
        where: { OR: [...byChain].map(([chainId, addresses]) => ({ chainId, address: { in: addresses } })) },
      });
      return rows.map(toStored);
    },
    async findBySymbol(symbol, chainIds) {
      const rows = await prisma.tokenMetadata.findMany({
        where: { symbolKey: symbol.trim().toUpperCase(), chainId: { in: [...chainIds] } },
        orderBy: [{ chainId: 'asc' }, { address: 'asc' }],
      });
      return rows.map(toStored);
    },
    async save(tokens) {
      if (tokens.length === 0) return;
      // ON CONFLICT DO NOTHING: two instances reading the same new token both succeed.
      await prisma.tokenMetadata.createMany({
        data: tokens.map((token) => ({ ...token, symbolKey: token.symbol.trim().toUpperCase() })),
        skipDuplicates: true,
      });
    },
  };
}
