import { PoolKind, type PoolEvent } from '@wallet-api/core/proto/events';
import { fromPoolEvent, groupByBlock } from './chain-pool-event.js';

const message = (overrides: Partial<PoolEvent> = {}): PoolEvent => ({
  chainId: 'ethereum',
  blockNumber: '10',
  blockHash: '0xAA',
  blockTimestamp: '1700000000',
  transactionIndex: 0,
  logIndex: 3,
  kind: PoolKind.POOL_KIND_UNISWAP_V3,
  pool: '0xPOOL',
  token0: '0xT0',
  token1: '0xT1',
  reserve0: '5',
  reserve1: '7',
  sqrtPriceX96: '79228162514264337593543950336',
  liquidity: '11',
  volume0: '0',
  volume1: '',
  factory: '0xF',
  fee: 500,
  ...overrides,
});

describe('pool event messages', () => {
  test('become bigints and lowercase addresses; an empty amount is zero', () => {
    expect(fromPoolEvent(message())).toEqual({
      chainId: 'ethereum',
      blockNumber: 10n,
      blockHash: '0xaa',
      blockTimestamp: 1_700_000_000,
      transactionIndex: 0,
      logIndex: 3,
      kind: 'v3',
      pool: '0xpool',
      token0: '0xt0',
      token1: '0xt1',
      reserve0: 5n,
      reserve1: 7n,
      sqrtPriceX96: 2n ** 96n,
      liquidity: 11n,
      volume0: 0n,
      volume1: 0n,
      factory: '0xf',
      fee: 500,
    });
  });

  test('of a kind this service does not know are left out', () => {
    expect(fromPoolEvent(message({ kind: PoolKind.POOL_KIND_UNSPECIFIED }))).toBeUndefined();
  });

  test('group into blocks by hash, so a second block at the same height (a new branch) is a block of its own', () => {
    const events = [message(), message({ logIndex: 4 }), message({ blockHash: '0xBB' }), message({ blockNumber: '11', blockHash: '0xCC' })].map(
      (event) => fromPoolEvent(event)!,
    );
    expect(groupByBlock(events).map((block) => [block.number, block.hash, block.events.map((event) => event.logIndex)])).toEqual([
      [10n, '0xaa', [3, 4]],
      [10n, '0xbb', [3]],
      [11n, '0xcc', [3]],
    ]);
  });
});
