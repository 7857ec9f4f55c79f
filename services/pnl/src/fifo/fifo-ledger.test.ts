import { createFifoLedger, type LedgerEntry } from './fifo-ledger.js';
import { averagePrices, pnlFigures } from './pnl-figures.js';

const unit = 10n ** 18n;

function ledgerOf(entries: readonly LedgerEntry[]) {
  const ledger = createFifoLedger(18);
  for (const entry of entries) ledger.apply(entry);
  return { ...ledger.figures() };
}

test('buy 1 at 100, buy 1 at 200, sell 1 at 300: the oldest lot is sold (realized 200) and the 200 lot stays open', () => {
  const statistics = ledgerOf([
    { type: 'buy', amount: unit, cost: 100 },
    { type: 'buy', amount: unit, cost: 200 },
    { type: 'sell', amount: unit, proceeds: 300 },
  ]);
  expect(statistics).toMatchObject({ realizedGain: 200, realizedCostBasis: 100, totalInvested: 300, openUnits: 1, openCost: 200 });
  const figures = pnlFigures([{ figures: statistics, price: 250 }]);
  expect(figures).toMatchObject({ realizedGain: 200, unrealizedGain: 50, totalGain: 250, netInvested: 200, totalInvested: 300 });
  expect(figures.relativeRealizedGainPercentage).toBe(200);
  expect(figures.relativeUnrealizedGainPercentage).toBe(25);
  expect(figures.relativeTotalGainPercentage).toBeCloseTo(250 / 3, 12);
  expect(averagePrices([{ figures: statistics, price: 250 }])).toEqual({ averageBuyPrice: 150, averageSellPrice: 300 });
});

test('a sale across lots takes each at its share of cost, oldest first', () => {
  const statistics = ledgerOf([
    { type: 'buy', amount: 4n * unit, cost: 400 },
    { type: 'receive', amount: 2n * unit, value: 100 },
    { type: 'sell', amount: 5n * unit, proceeds: 1_000 },
  ]);
  // 4 at 100 each, then 1 of the 2 received at 50 each.
  expect(statistics).toMatchObject({ realizedCostBasis: 450, realizedGain: 550, receivedExternal: 100, totalInvested: 500, openUnits: 1, openCost: 50 });
});

test('sends and fees take the oldest lots at their cost and realize nothing', () => {
  const statistics = ledgerOf([
    { type: 'buy', amount: 2n * unit, cost: 200 },
    { type: 'send', amount: unit, value: 150 },
    { type: 'fee', amount: unit / 10n, value: 15 },
    { type: 'sell', amount: unit / 2n, proceeds: 75 },
  ]);
  expect(statistics.realizedGain).toBeCloseTo(25, 9);
  expect(statistics).toMatchObject({ sentExternal: 150, fees: 15, realizedCostBasis: 50 });
  expect(statistics.openUnits).toBeCloseTo(0.4, 12);
  expect(statistics.openCost).toBeCloseTo(40, 9);
});

test('NFT purchases sell the fungible paid at market value; NFT sales open a lot', () => {
  const statistics = ledgerOf([
    { type: 'buy', amount: unit, cost: 1_000 },
    { type: 'pay-for-nft', amount: unit / 2n, value: 800 },
    { type: 'receive-for-nft', amount: unit, value: 1_700 },
  ]);
  expect(statistics).toMatchObject({ sentForNfts: 800, receivedForNfts: 1_700, realizedGain: 300, realizedCostBasis: 500, totalInvested: 2_700 });
  expect(statistics).toMatchObject({ openUnits: 1.5, openCost: 2_200 });
});

test('a sale beyond the lots seen has no known cost for that part: its whole proceeds are realized', () => {
  const statistics = ledgerOf([
    { type: 'buy', amount: unit, cost: 100 },
    { type: 'sell', amount: 3n * unit, proceeds: 900 },
  ]);
  expect(statistics).toMatchObject({ realizedGain: 800, realizedCostBasis: 100, openUnits: 0, openCost: 0 });
});

test('zero amounts change nothing', () => {
  expect(
    ledgerOf([
      { type: 'buy', amount: 0n, cost: 5 },
      { type: 'sell', amount: 0n, proceeds: 5 },
    ]),
  ).toMatchObject({ totalInvested: 0, realizedGain: 0 });
});

test('100,000 trades stay exact in amounts: what is open is what was bought less what was sold', () => {
  const ledger = createFifoLedger(18);
  let held = 0n;
  for (let trade = 0; trade < 100_000; trade++) {
    const amount = BigInt(1 + (trade % 7)) * unit;
    if (trade % 3 === 2 && held >= amount) {
      ledger.apply({ type: 'sell', amount, proceeds: 1 });
      held -= amount;
    } else {
      ledger.apply({ type: 'buy', amount, cost: 1 });
      held += amount;
    }
  }
  expect(ledger.openAmount()).toBe(held);
});
