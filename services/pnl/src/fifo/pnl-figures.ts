import type { LedgerFigures } from './fifo-ledger.js';

/** decisions.md "PnL": the attributes of a `pnl` resource, in the request's currency. */
export interface PnlFigures {
  totalGain: number;
  realizedGain: number;
  unrealizedGain: number;
  relativeTotalGainPercentage: number;
  relativeRealizedGainPercentage: number;
  relativeUnrealizedGainPercentage: number;
  totalFee: number;
  totalInvested: number;
  realizedCostBasis: number;
  netInvested: number;
  receivedExternal: number;
  sentExternal: number;
  sentForNfts: number;
  receivedForNfts: number;
}

/** One fungible ledger's figures with what values its open lots now. */
export interface PricedFigures {
  figures: LedgerFigures;
  /** The fungible's one price now; the caller leaves out fungibles without one. */
  price: number;
}

/** A gain relative to what it was measured on, in percent; 0 when nothing was. */
const percentage = (gain: number, basis: number) => (basis === 0 ? 0 : (gain / basis) * 100);

/**
 * Sums fungibles' statistics into the resource's figures. The unrealized gain is the open lots
 * at today's price less their cost; the percentages relate each gain to its own basis: realized
 * to the cost of what was sold, unrealized to the cost of what is held (net invested), total to
 * everything invested.
 */
export function pnlFigures(fungibles: readonly PricedFigures[]): PnlFigures {
  const figures: PnlFigures = {
    totalGain: 0,
    realizedGain: 0,
    unrealizedGain: 0,
    relativeTotalGainPercentage: 0,
    relativeRealizedGainPercentage: 0,
    relativeUnrealizedGainPercentage: 0,
    totalFee: 0,
    totalInvested: 0,
    realizedCostBasis: 0,
    netInvested: 0,
    receivedExternal: 0,
    sentExternal: 0,
    sentForNfts: 0,
    receivedForNfts: 0,
  };
  for (const { figures: ledger, price } of fungibles) {
    figures.realizedGain += ledger.realizedGain;
    figures.unrealizedGain += ledger.openUnits * price - ledger.openCost;
    figures.totalFee += ledger.fees;
    figures.totalInvested += ledger.totalInvested;
    figures.realizedCostBasis += ledger.realizedCostBasis;
    figures.netInvested += ledger.openCost;
    figures.receivedExternal += ledger.receivedExternal;
    figures.sentExternal += ledger.sentExternal;
    figures.sentForNfts += ledger.sentForNfts;
    figures.receivedForNfts += ledger.receivedForNfts;
  }
  figures.totalGain = figures.realizedGain + figures.unrealizedGain;
  figures.relativeRealizedGainPercentage = percentage(figures.realizedGain, figures.realizedCostBasis);
  figures.relativeUnrealizedGainPercentage = percentage(figures.unrealizedGain, figures.netInvested);
  figures.relativeTotalGainPercentage = percentage(figures.totalGain, figures.totalInvested);
  return figures;
}

/** decisions.md "PnL" breakdown: the mean price of trade buys and of trade sales per whole unit (over every wallet's ledger); 0 without any. */
export function averagePrices(fungibles: readonly PricedFigures[]): { averageBuyPrice: number; averageSellPrice: number } {
  let bought = 0;
  let cost = 0;
  let sold = 0;
  let proceeds = 0;
  for (const { figures } of fungibles) {
    bought += figures.boughtUnits;
    cost += figures.boughtCost;
    sold += figures.soldUnits;
    proceeds += figures.soldProceeds;
  }
  return { averageBuyPrice: bought === 0 ? 0 : cost / bought, averageSellPrice: sold === 0 ? 0 : proceeds / sold };
}
