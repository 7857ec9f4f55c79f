import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Request, Response } from 'express';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * A serialized answer as the bytes sent, compressed once when it is computed: a hit then costs no
 * encoding at all, and a 280 KB transactions page goes out as 20-26 KB to the clients that accept
 * it (browsers, fetch, curl --compressed all do).
 */
export interface EncodedAnswer {
  /**
   * The HTTP status it is sent with, when not the route's success status (a 202 while a wallet is
   * first indexed): kept with the bytes so that every request sharing one computation sends it.
   */
  status?: number;
  identity: Buffer;
  br?: Buffer;
  gzip?: Buffer;
}

/** Below this, compression saves less than its headers and CPU cost (the `compression` middleware's default). */
export const compressionThreshold = 1024;

/**
 * The JSON's bytes, and above the threshold their brotli (quality 4: smaller than gzip's default
 * in half its time, about 1.6 ms for 280 KB) and gzip forms, made on libuv's thread pool so
 * the event loop keeps serving meanwhile.
 */
export async function encodeAnswer(json: string): Promise<EncodedAnswer> {
  const identity = Buffer.from(json);
  if (identity.length < compressionThreshold) return { identity };
  const [br, gz] = await Promise.all([
    brotli(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: identity.length } }),
    gzipped(identity),
  ]);
  return { identity, br, gzip: gz };
}

/** Bytes the answer holds in memory. */
export const encodedSize = (answer: EncodedAnswer): number => answer.identity.length + (answer.br?.length ?? 0) + (answer.gzip?.length ?? 0);

/** Sends the form the client prefers among those the answer has (`Accept-Encoding`), identity when it names none. */
export function sendEncoded(req: Request, res: Response, status: number, answer: EncodedAnswer): void {
  res.status(status).type('json');
  if (!answer.br && !answer.gzip) {
    res.send(answer.identity);
    return;
  }
  // The answer differs by this header: shared caches must key on it.
  res.vary('Accept-Encoding');
  const offered = [...(answer.br ? ['br'] : []), ...(answer.gzip ? ['gzip'] : []), 'identity'];
  const chosen = req.acceptsEncodings(offered);
  if (chosen === 'br' || chosen === 'gzip') {
    res.set('Content-Encoding', chosen);
    res.send(answer[chosen]);
    return;
  }
  res.send(answer.identity);
}
