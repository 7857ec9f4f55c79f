import { chartStats, toFungibleChartResource } from './fungible-charts.js';

describe('chartStats', () => {
  it('first, min, average, max and last of the prices in order', () => {
    expect(chartStats([3, 1, 4, 1, 5])).toEqual({ first: 3, min: 1, avg: 14 / 5, max: 5, last: 5 });
    expect(chartStats([2])).toEqual({ first: 2, min: 2, avg: 2, max: 2, last: 2 });
  });

  it('all null without points', () => {
    expect(chartStats([])).toEqual({ first: null, min: null, avg: null, max: null, last: null });
  });
});

describe('toFungibleChartResource', () => {
  it('id <fungible_id>-<period>, ISO bounds, [seconds, price] points and their stats, a link to the fungible', () => {
    const resource = toFungibleChartResource(
      {
        fungibleId: 'eth',
        beginAt: '1764115200',
        endAt: '1764201600',
        points: [
          { timestamp: '1764115200', price: 2 },
          { timestamp: '1764201600', price: 4 },
        ],
      },
      'day',
      'https://api.wallet.test',
    );
    expect(resource).toEqual({
      type: 'fungible_charts',
      id: 'eth-day',
      attributes: {
        begin_at: '2025-11-26T00:00:00.000Z',
        end_at: '2025-11-27T00:00:00.000Z',
        stats: { first: 2, min: 2, avg: 3, max: 4, last: 4 },
        points: [
          [1764115200, 2],
          [1764201600, 4],
        ],
      },
      relationships: { fungible: { links: { related: 'https://api.wallet.test/v1/fungibles/eth' }, data: { type: 'fungibles', id: 'eth' } } },
    });
  });
});
