import { inList, orphanedBlocks, sql, type ClickHouse } from '@wallet-api/core/clickhouse';

/** Where a fungible's price history begins: what a `max` chart spans. */
export interface FirstPriceStore {
  /**
   * The time (unix seconds) of the oldest canonical `token_prices` row with a price among these
   * tokens; undefined when none has one yet. Rows still waiting for their INSERT are not read:
   * a token first priced minutes ago charts `max` over one day until they are stored.
   */
  firstPriced(tokens: readonly { chainId: string; token: string }[]): Promise<number | undefined>;
  /** The time of the oldest canonical day mark of these chains: where their price history begins. */
  firstDayMark(chainIds: readonly string[]): Promise<number | undefined>;
}

export function createFirstPriceStore(clickhouse: ClickHouse): FirstPriceStore {
  // ClickHouse 18.16's min() of no rows is 0, not NULL: the epoch itself stands for "none".
  const orNone = (rows: readonly { first: number | string }[]) => {
    const first = Number(rows[0]?.first ?? 0);
    return first > 0 ? first : undefined;
  };
  return {
    async firstPriced(tokens) {
      if (tokens.length === 0) return undefined;
      const chainIds = [...new Set(tokens.map((ref) => ref.chainId))];
      return orNone(
        await clickhouse.query<{ first: number }>(sql`
          SELECT min(toUInt32(timestamp)) AS first FROM token_prices
          WHERE priced = 1 AND chain_id IN ${inList(chainIds)} AND token IN ${inList([...new Set(tokens.map((ref) => ref.token))])}
            AND concat(chain_id, ':', token) IN ${inList([...new Set(tokens.map((ref) => `${ref.chainId}:${ref.token}`))])}
            AND (chain_id, block_hash) NOT IN (${orphanedBlocks(chainIds)})`),
      );
    },
    async firstDayMark(chainIds) {
      if (chainIds.length === 0) return undefined;
      return orNone(
        await clickhouse.query<{ first: number }>(sql`
          SELECT min(toUInt32(timestamp)) AS first FROM price_days
          WHERE chain_id IN ${inList(chainIds)} AND (chain_id, block_hash) NOT IN (${orphanedBlocks(chainIds)})`),
      );
    },
  };
}
