import { invalidArgument, registration, unavailable, type ServiceRegistration } from '@wallet-api/core/grpc';
import type { RequestContext } from '@wallet-api/core/proto/common';
import {
  PositionsService,
  TrashFilter,
  type GetProtocolPositionsAtRequest,
  type GetProtocolPositionsAtResponse,
  type Position,
  type PositionsServer,
  type ProtocolAmount,
} from '@wallet-api/core/proto/positions';
import type { Logger } from '@wallet-api/core/logger';
import { sharedVersion, type ChangeVersions, type WalletChangeTokens } from '@wallet-api/core/cache';
import type { HeldWallets } from '../positions/held-wallets.js';
import type { Address } from 'viem';
import type { ProtocolPosition } from '../adapters/protocol-position.js';
import { quoteKey, type DappDirectory, type PriceQuotes, type TokenDirectory } from '@wallet-api/core/reference-data';
import { portfolioOf, sortByValue, valuePosition } from '@wallet-api/core/resources';
import { selectPositions, wantsProtocolRows, wantsWalletRows, type PositionSelection } from '../positions/position-filter.js';
import { protocolPositions, tokensOf, walletPositions } from '../positions/position-rows.js';
import type { ProtocolHistory } from '../protocols/protocol-history.js';
import type { ProtocolHoldingsSource } from '../protocols/protocol-holdings.js';

export interface PositionsServiceDeps {
  /** What wallets hold, kept in memory under their change tokens. */
  held: HeldWallets;
  /** The tokens a request reads once: its wallet's holdings token for `held`, the shared ones for `prices`. */
  versions: Pick<ChangeVersions, 'walletTokens'>;
  holdings: ProtocolHoldingsSource;
  tokens: TokenDirectory;
  dapps: DappDirectory;
  prices: PriceQuotes;
  history: ProtocolHistory;
  logger: Logger;
}

/** A chart has at most ~460 points: more blocks in one request is no chart's. */
const maxHistoryBlocks = 500;

function toProtocolAmount(position: ProtocolPosition): ProtocolAmount {
  const { receipt } = position;
  return {
    positionType: position.type,
    token: position.token,
    amount: position.amount.toString(),
    poolAddress: position.poolAddress,
    ...(receipt?.kind === 'fungible' ? { fungibleReceipt: receipt.token } : {}),
    ...(receipt?.kind === 'nft' ? { nftReceipt: `${receipt.contract}:${receipt.tokenId}` } : {}),
    receiptAmount: receipt?.kind === 'fungible' ? receipt.amount.toString() : '',
  };
}

interface WalletQuery {
  context: RequestContext | undefined;
  address: string;
  chainIds: readonly string[];
  currency: string;
  sync: boolean;
}

const evmAddress = /^0x[0-9a-fA-F]{40}$/;

/** EVM addresses are kept lowercase; other families' addresses are case-sensitive. */
function walletOf(address: string): string {
  if (address === '') throw invalidArgument('address is required');
  return evmAddress.test(address) ? address.toLowerCase() : address;
}

export function positionsService(deps: PositionsServiceDeps): ServiceRegistration {
  const { held: heldWallets, versions, holdings, tokens, dapps, prices, history, logger } = deps;

  async function protocolPositionsAt(request: GetProtocolPositionsAtRequest): Promise<GetProtocolPositionsAtResponse> {
    if (!evmAddress.test(request.address)) throw invalidArgument('address must be an EVM address (protocol positions are EVM-only)');
    if (request.blockNumbers.length > maxHistoryBlocks)
      throw invalidArgument(`at most ${maxHistoryBlocks} blocks per request (got ${request.blockNumbers.length})`);
    const blocks = request.blockNumbers.map((block) => BigInt(block));
    let read: Awaited<ReturnType<typeof history.positionsAt>>;
    try {
      read = await history.positionsAt(request.chainId, request.address.toLowerCase() as Address, blocks);
    } catch (error) {
      logger.warn({ err: error, chainId: request.chainId, wallet: request.address }, 'past protocol positions could not be read from the chain');
      throw unavailable(`protocol positions on ${request.chainId} at past blocks cannot be read right now; retry later`);
    }
    return { blocks: read.map(({ blockNumber, positions }) => ({ blockNumber: blockNumber.toString(), positions: positions.map(toProtocolAmount) })) };
  }

  /** The wallet's positions on the chains that pass the selection, valued in the currency. */
  async function valuedPositions(query: WalletQuery, selection: PositionSelection): Promise<Position[]> {
    const wallet = walletOf(query.address);
    const chainIds = [...new Set(query.chainIds)];
    const currency = query.currency || 'usd';
    // One Redis read for the request: a failure leaves it uncached rather than failed.
    const changeTokens: WalletChangeTokens | undefined = await versions.walletTokens(wallet, ['holdings']).catch(() => undefined);
    const generation = changeTokens && sharedVersion(changeTokens);
    const { balances: held, snapshots: stored } = await heldWallets.read(wallet, chainIds, changeTokens);
    const heldTokens = new Map<string, string[]>();
    for (const balance of held) {
      if (balance.asset === '') continue;
      const chainTokens = heldTokens.get(balance.chainId);
      if (chainTokens) chainTokens.push(balance.asset);
      else heldTokens.set(balance.chainId, [balance.asset]);
    }
    const walletBalances = wantsWalletRows(selection) ? held : [];
    // The wallet rows are known before the protocol positions are: their metadata, and the prices
    // of the rows the selection keeps (spam left out by default), are asked while a wallet's first
    // protocol read (a few hundred ms) runs; the directories' caches answer for them below. A
    // failure here is met again there.
    const early = tokens
      .load(tokensOf(walletBalances, []), query.context)
      .then((table) => {
        const kept = selectPositions(walletPositions(wallet, walletBalances, table), [], selection);
        return prices.quotes(
          kept.map((position) => ({ chainId: position.chainId, address: position.token?.address ?? '' })),
          currency,
          query.context,
          generation,
        );
      })
      .catch(() => undefined);
    const protocolHoldings = wantsProtocolRows(selection) ? await holdings.holdings({ wallet, chainIds, sync: query.sync, heldTokens, stored }) : [];
    await early;
    const [tokenTable, dappTable] = await Promise.all([
      tokens.load(tokensOf(walletBalances, protocolHoldings), query.context),
      dapps.load(
        protocolHoldings.flatMap(({ chainId, positions }) => positions.map((position) => ({ chainId, address: position.contract }))),
        query.context,
      ),
    ]);
    const selected = selectPositions(
      walletPositions(wallet, walletBalances, tokenTable),
      protocolHoldings.flatMap((chainHoldings) => protocolPositions(wallet, chainHoldings, tokenTable, dappTable)),
      selection,
    );
    const quotes = await prices.quotes(
      selected.map((position) => ({ chainId: position.chainId, address: position.token?.address ?? '' })),
      currency,
      query.context,
      generation,
    );
    return selected.map((position) => valuePosition(position, quotes.get(quoteKey(position.chainId, position.token?.address ?? '')) ?? {}));
  }

  return registration<PositionsServer>('walletapi.positions.Positions', PositionsService, {
    async listPositions(request) {
      const positions = await valuedPositions(request, {
        positions: request.positions,
        positionTypes: request.positionTypes,
        fungibleIds: request.fungibleIds,
        dappIds: request.dappIds,
        trash: request.trash,
      });
      return { positions: sortByValue(positions, request.sortAscending) };
    },
    async getPortfolio(request) {
      const positions = await valuedPositions(request, {
        positions: request.positions,
        positionTypes: [],
        fungibleIds: [],
        dappIds: [],
        trash: TrashFilter.TRASH_FILTER_ONLY_NON_TRASH,
      });
      return portfolioOf(positions, [...new Set(request.chainIds)]);
    },
    getProtocolPositionsAt: (request) => protocolPositionsAt(request),
  });
}
