import { HttpRequestError, TimeoutError } from 'viem';
import { boundedLines, boundedText, createLogger, errorFields, maxLogLineBytes } from './index.js';

/** A JSON-RPC batch of the size one timed-out positions read carried (about 2.2 MB). */
const batch = Array.from({ length: 8_000 }, (_, id) => ({
  jsonrpc: '2.0',
  id,
  method: 'eth_call',
  params: [{ to: `0x${'1'.repeat(40)}`, data: `0x${'ab'.repeat(120)}` }, 'latest'],
}));
const providerUrl = 'https://eth-mainnet.example.com/v2/SECRET-PROVIDER-KEY?token=SECRET-QUERY';

function captured(): { lines: string[]; write: (line: string) => void } {
  const lines: string[] = [];
  return { lines, write: (line) => lines.push(line) };
}

describe('errorFields', () => {
  test.each([
    [
      'TimeoutError',
      new TimeoutError({ body: batch, url: providerUrl }),
      { message: 'The request took too long to respond.', details: 'The request timed out.' },
    ],
    [
      'HttpRequestError',
      new HttpRequestError({ body: batch, url: providerUrl, details: 'fetch failed' }),
      { message: 'HTTP request failed.', host: 'eth-mainnet.example.com', requests: 8_000 },
    ],
  ])("a viem %s is its type, short message, host and batch size: not the request body, nor the URL's path and query", (type, error, expected) => {
    expect(JSON.stringify({ ...error, message: error.message }).length).toBeGreaterThan(2_000_000);
    const fields = errorFields(error) as Record<string, unknown>;
    expect(fields).toMatchObject({ type, ...expected });
    const logged = JSON.stringify(fields);
    expect(logged.length).toBeLessThan(4_000);
    expect(logged).not.toMatch(/SECRET|eth_call/);
  });

  test('causes are followed three deep, each bounded', () => {
    const cause = new HttpRequestError({ body: { method: 'eth_blockNumber' }, url: providerUrl, details: 'fetch failed', status: 503 });
    const outer = new Error(`read failed at ${providerUrl}: ${'x'.repeat(5_000)}`, { cause: new Error('middle', { cause }) });
    const fields = errorFields(outer) as { message: string; cause: { message: string; cause: Record<string, unknown> } };
    expect(fields.message).toMatch(/^read failed at https:\/\/eth-mainnet\.example\.com\/… x+… \(\d+ more characters\)$/);
    expect(fields.message.length).toBeLessThan(1_100);
    expect(fields.cause.message).toBe('middle');
    expect(fields.cause.cause).toMatchObject({
      type: 'HttpRequestError',
      message: 'HTTP request failed.',
      status: 503,
      details: 'fetch failed',
      host: 'eth-mainnet.example.com',
    });
    expect(JSON.stringify(fields)).not.toContain('SECRET');
  });

  test('values that are no errors are text', () => {
    expect(errorFields('plain')).toBe('plain');
    expect(errorFields(42)).toBe('42');
  });
});

describe('boundedText', () => {
  test('cuts URLs to scheme and host (credentials dropped), leaves request bodies out, and bounds the length', () => {
    expect(boundedText('GET http://user:pass@node.example:8545/path?key=1 failed')).toBe('GET http://node.example:8545/… failed');
    expect(boundedText('HTTP request failed.\n\nURL: http://127.0.0.1:1/v2/K\nRequest body: [{"method":"eth_blockNumber"}]')).toBe(
      'HTTP request failed.\n\nURL: http://127.0.0.1:1/…\nRequest body: (not logged)',
    );
    expect(boundedText('y'.repeat(50), 10)).toBe(`${'y'.repeat(10)}… (40 more characters)`);
  });
});

describe('createLogger', () => {
  test('logs an error under err or error as errorFields says, and cuts any line over 16 KB to one that says how long it was', () => {
    const { lines, write } = captured();
    const logger = createLogger('test', 'info', write);
    logger.warn({ err: new TimeoutError({ body: batch, url: providerUrl }), chainId: 'ethereum' }, 'chain read timed out');
    logger.error({ error: new HttpRequestError({ body: batch, url: providerUrl }) }, 'chain read failed');
    logger.info({ echoed: 'z'.repeat(40_000) }, 'a field too long');
    expect(lines).toHaveLength(3);
    for (const line of lines) {
      expect(Buffer.byteLength(line)).toBeLessThanOrEqual(maxLogLineBytes);
      expect(line).not.toMatch(/SECRET|eth_call/);
    }
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 40,
      service: 'test',
      chainId: 'ethereum',
      msg: 'chain read timed out',
      err: { type: 'TimeoutError', message: 'The request took too long to respond.' },
    });
    expect(JSON.parse(lines[1]!)).toMatchObject({
      level: 50,
      error: { type: 'HttpRequestError', message: 'HTTP request failed.', host: 'eth-mainnet.example.com', requests: 8_000 },
    });
    expect(JSON.parse(lines[2]!)).toEqual({
      level: 30,
      time: expect.any(Number),
      service: 'test',
      name: 'test',
      msg: 'a field too long',
      cutLogLineBytes: expect.any(Number),
    });
    expect(JSON.parse(lines[2]!).cutLogLineBytes).toBeGreaterThan(40_000);
  });

  test('a line that is no JSON is cut to its length alone', () => {
    const { lines, write } = captured();
    boundedLines(write).write(`${'w'.repeat(maxLogLineBytes + 1)}\n`);
    boundedLines(write).write('short\n');
    expect(lines).toEqual([`${JSON.stringify({ cutLogLineBytes: maxLogLineBytes + 2 })}\n`, 'short\n']);
  });
});
