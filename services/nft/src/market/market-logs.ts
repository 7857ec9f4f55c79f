import { decodeEventLog, parseAbi, type Hex } from 'viem';

export const marketAbi = parseAbi([
  'event Listed(uint256 indexed listingId, address indexed seller, address indexed nft, uint256 tokenId, uint256 price)',
  'event Sold(uint256 indexed listingId, address indexed buyer, address indexed seller, address nft, uint256 tokenId, uint256 price)',
]);

/** A Listed or Sold log of a trusted market, in the block with this hash. */
export interface MarketEvent {
  chainId: string;
  blockHash: string;
  logIndex: number;
  blockNumber: bigint;
  blockTimestamp: bigint;
  market: string;
  kind: 'listed' | 'sold';
  listingId: bigint;
  contract: string;
  tokenId: string;
  /** Wei of the chain's native coin. */
  price: bigint;
  seller: string;
  /** '' for a listing. */
  buyer: string;
}

export interface MarketLog {
  address: string;
  topics: readonly Hex[];
  data: Hex;
  blockHash: string | null;
  blockNumber: Hex | bigint | null;
  logIndex: Hex | number | null;
}

/** The market event a log is, or undefined for anything else (another event, a pending log, one that does not decode). */
export function marketEvent(chainId: string, log: MarketLog, blockTimestamp: bigint): MarketEvent | undefined {
  if (log.blockHash === null || log.blockNumber === null || log.logIndex === null || log.topics.length === 0) return undefined;
  let decoded: ReturnType<typeof decodeEventLog<typeof marketAbi>>;
  try {
    decoded = decodeEventLog({ abi: marketAbi, topics: log.topics as [Hex, ...Hex[]], data: log.data });
  } catch {
    return undefined;
  }
  const base = {
    chainId,
    blockHash: log.blockHash,
    logIndex: Number(log.logIndex),
    blockNumber: BigInt(log.blockNumber),
    blockTimestamp,
    market: log.address.toLowerCase(),
    listingId: decoded.args.listingId,
    tokenId: decoded.args.tokenId.toString(),
    price: decoded.args.price,
    contract: decoded.args.nft.toLowerCase(),
    seller: decoded.args.seller.toLowerCase(),
  };
  return decoded.eventName === 'Listed' ? { ...base, kind: 'listed', buyer: '' } : { ...base, kind: 'sold', buyer: decoded.args.buyer.toLowerCase() };
}
