import { PositionsFilter } from '@wallet-api/core/proto/positions';
import { ChainFamily } from '@wallet-api/core/proto/reference_data';
import { positionsDeadlineMs, positionsFilterFor } from './wallet-positions.js';

describe('what the positions service is asked for', () => {
  test('EVM wallets: the requested filter as is', () => {
    expect(positionsFilterFor(ChainFamily.CHAIN_FAMILY_EVM, 'only_simple')).toBe(PositionsFilter.POSITIONS_FILTER_ONLY_SIMPLE);
    expect(positionsFilterFor(ChainFamily.CHAIN_FAMILY_EVM, 'only_complex')).toBe(PositionsFilter.POSITIONS_FILTER_ONLY_COMPLEX);
    expect(positionsFilterFor(ChainFamily.CHAIN_FAMILY_EVM, 'no_filter')).toBe(PositionsFilter.POSITIONS_FILTER_NO_FILTER);
  });

  test('Solana wallets: simple balances only, nothing when only protocol positions are asked for', () => {
    expect(positionsFilterFor(ChainFamily.CHAIN_FAMILY_SOLANA, 'only_simple')).toBe(PositionsFilter.POSITIONS_FILTER_ONLY_SIMPLE);
    expect(positionsFilterFor(ChainFamily.CHAIN_FAMILY_SOLANA, 'no_filter')).toBe(PositionsFilter.POSITIONS_FILTER_ONLY_SIMPLE);
    expect(positionsFilterFor(ChainFamily.CHAIN_FAMILY_SOLANA, 'only_complex')).toBeUndefined();
  });

  test('sync=true outlasts the 30 seconds the service may wait', () => {
    expect(positionsDeadlineMs(true)).toBeGreaterThan(30_000);
    expect(positionsDeadlineMs(false)).toBeLessThan(30_000);
  });
});
