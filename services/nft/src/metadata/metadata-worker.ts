import type { ChangeVersions } from '@wallet-api/core/cache';
import type { Logger } from '@wallet-api/core/logger';
import { decodeFunctionResult, encodeFunctionData, parseAbi, type Hex } from 'viem';
import type { ChainClients } from '../chain/chain-clients.js';
import type { DueToken, FetchResult, TokenStore } from '../store/token-store.js';
import type { MetadataFetcher } from './metadata-fetcher.js';

export interface MetadataWorker {
  /** One round: claims the due tokens and fetches them. Answers how many it handled. */
  runOnce(): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

const uriAbi = parseAbi(['function tokenURI(uint256 tokenId) view returns (string)', 'function uri(uint256 id) view returns (string)']);

export interface MetadataWorkerOptions {
  tokens: TokenStore;
  clients: ChainClients;
  fetcher: MetadataFetcher;
  versions: ChangeVersions;
  logger: Logger;
  /** Tokens claimed per round. */
  batchSize: number;
  /** Fetches in flight at once. */
  concurrency: number;
  /** Wait between rounds that found nothing due. */
  idleMs: number;
  /** First retry after this; each further one after twice the wait before, up to `maxBackoffMs`. */
  backoffMs: number;
  maxBackoffMs: number;
  /** After this many attempts a token that still fails is served with empty metadata. */
  maxAttempts: number;
}

/** The contract reverted: it has no URI for the token, which no retry changes. */
class NoUri extends Error {}

/**
 * Fetches token metadata in the background, never on a request path: reads the token's URI from
 * its contract, then the document, and marks the wallets holding it changed. A failure that may
 * pass is tried again with exponential backoff; what cannot be used, or keeps failing, leaves
 * the NFT with empty metadata.
 */
export function createMetadataWorker(options: MetadataWorkerOptions): MetadataWorker {
  const { tokens, clients, fetcher, versions, logger } = options;
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<unknown> | undefined;
  let stopped = false;

  async function tokenUri(token: DueToken): Promise<string> {
    const client = await clients.client(token.chainId);
    if (!client) throw new NoUri(`chain ${token.chainId} has no EVM RPC endpoint`);
    const functionName = token.standard === 'erc721' ? 'tokenURI' : 'uri';
    let data: Hex;
    try {
      ({ data = '0x' } = await client.call({
        to: token.contract as Hex,
        data: encodeFunctionData({ abi: uriAbi, functionName, args: [BigInt(token.tokenId)] }),
      }));
    } catch (error) {
      if (/revert/i.test(String((error as Error)?.message))) throw new NoUri(`${functionName} reverted`);
      throw error;
    }
    try {
      return decodeFunctionResult({ abi: uriAbi, functionName, data });
    } catch {
      throw new NoUri(`${functionName} answered no string`);
    }
  }

  function retryAt(attempts: number): Date {
    const wait = Math.min(options.backoffMs * 2 ** Math.max(0, attempts - 1), options.maxBackoffMs);
    return new Date(Date.now() + wait);
  }

  async function fetchOne(token: DueToken): Promise<void> {
    const attempts = token.attempts + 1;
    let result: FetchResult;
    let uri = '';
    try {
      uri = await tokenUri(token);
      const outcome = await fetcher.fetch(uri, BigInt(token.tokenId));
      result = outcome.kind === 'retry' ? { ...outcome, at: retryAt(attempts), uri } : { ...outcome, uri };
    } catch (error) {
      const reason = String((error as Error)?.message ?? error);
      result =
        error instanceof NoUri
          ? { kind: 'unusable', reason, uri }
          : { kind: 'retry', reason: `reading the token URI failed: ${reason}`, at: retryAt(attempts), uri };
    }
    if (result.kind === 'retry' && attempts >= options.maxAttempts)
      result = { kind: 'unusable', reason: `gave up after ${attempts} attempts: ${result.reason}`, uri };
    await tokens.saveFetch(token, result);
    if (result.kind !== 'retry') {
      if (result.kind === 'unusable')
        logger.info(
          { chainId: token.chainId, contract: token.contract, tokenId: token.tokenId, reason: result.reason },
          'token metadata unusable; served empty',
        );
      await versions.walletsChanged(await tokens.holders(token), 'nfts');
    }
  }

  async function runOnce(): Promise<number> {
    // A claim lasts past the slowest fetch of the round, so no other worker takes the token meanwhile.
    const due = await tokens.claimDue(options.batchSize, 5 * 60_000);
    let next = 0;
    const work = async () => {
      while (next < due.length) {
        const token = due[next++]!;
        await fetchOne(token).catch((error: unknown) =>
          logger.warn({ err: error, ...token }, 'token metadata round failed; the claim expires and it is tried again'),
        );
      }
    };
    await Promise.all(Array.from({ length: Math.min(options.concurrency, due.length) }, work));
    return due.length;
  }

  function schedule(delayMs: number) {
    if (stopped) return;
    timer = setTimeout(() => {
      round = runOnce()
        .then((handled) => schedule(handled > 0 ? 0 : options.idleMs))
        .catch((error: unknown) => {
          logger.warn({ err: error }, 'metadata worker round failed');
          schedule(options.idleMs);
        });
    }, delayMs);
  }

  return {
    runOnce,
    start() {
      stopped = false;
      schedule(0);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await round;
      await fetcher.close();
    },
  };
}
