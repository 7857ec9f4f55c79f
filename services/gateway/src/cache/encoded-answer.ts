import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Request, Response } from 'express';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** The compressed forms an answer can be sent in. */
export type Coding = 'br' | 'gzip';

/**
 * A serialized answer as the bytes sent. Each compressed form is made the first time a client
 * accepts it and then kept with the answer: a hit costs no encoding at all, a 280 KB transactions
 * page goes out as 20-26 KB to the clients that accept it (browsers, fetch, curl --compressed
 * all do), and no answer is compressed for clients that never asked (made at computation time,
 * both forms took a tenth of the gateway's main thread and as much of libuv's pool under load).
 */
export interface EncodedAnswer {
  /**
   * The HTTP status it is sent with, when not the route's success status (a 202 while a wallet is
   * first indexed): kept with the bytes so that every request sharing one computation sends it.
   */
  status?: number;
  identity: Buffer;
  /** The compressed forms made so far. */
  compressed?: Partial<Record<Coding, Promise<Buffer>>>;
}

/** Below this, compression saves less than its headers and CPU cost (the `compression` middleware's default). */
export const compressionThreshold = 1024;

/** The JSON's bytes; the compressed forms follow on demand (`sendEncoded`). */
export function encodeAnswer(json: string): EncodedAnswer {
  return { identity: Buffer.from(json) };
}

/** An answer's form in a coding: brotli at quality 4 (smaller than gzip's default in half its time, about 1.6 ms for 280 KB), on libuv's pool so the event loop keeps serving. */
function compress(identity: Buffer, coding: Coding): Promise<Buffer> {
  return coding === 'br'
    ? brotli(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: identity.length } })
    : gzipped(identity);
}

/**
 * Bytes the answer holds in memory once compressed: an answer is counted when it is kept, before
 * any form is made, so a compressible one is counted with room for both (each about a tenth of
 * its plain bytes for JSON: measured 20-26 KB of 280 KB).
 */
export const encodedSize = (answer: EncodedAnswer): number =>
  answer.identity.length < compressionThreshold ? answer.identity.length : Math.ceil(answer.identity.length * 1.25);

/** The answer in a coding, made once per answer; a failed compression is not kept, so the next request tries again. */
function formOf(answer: EncodedAnswer, coding: Coding): Promise<Buffer> {
  const forms = (answer.compressed ??= {});
  const made = forms[coding];
  if (made) return made;
  const making = compress(answer.identity, coding);
  forms[coding] = making;
  making.catch(() => forms[coding] === making && delete forms[coding]);
  return making;
}

/** Sends the form the client prefers among br, gzip and identity (`Accept-Encoding`), identity when it names none or compression fails. */
export async function sendEncoded(req: Request, res: Response, status: number, answer: EncodedAnswer): Promise<void> {
  res.status(status).type('json');
  if (answer.identity.length < compressionThreshold) {
    res.send(answer.identity);
    return;
  }
  // The answer differs by this header: shared caches must key on it.
  res.vary('Accept-Encoding');
  const chosen = req.acceptsEncodings(['br', 'gzip', 'identity']);
  if (chosen === 'br' || chosen === 'gzip') {
    const form = await formOf(answer, chosen).catch(() => undefined);
    if (form) {
      res.set('Content-Encoding', chosen);
      res.send(form);
      return;
    }
  }
  res.send(answer.identity);
}
