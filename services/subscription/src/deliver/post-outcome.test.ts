import { describeNetworkError, outcomeOfResponse, type PostOutcome } from './post-outcome.js';

describe('outcomeOfResponse', () => {
  const now = new Date('2015-10-21T07:28:00.000Z');
  const base = { latencyMs: 12, responseBody: 'text' };
  it.each<{ status: number; headers?: Record<string, string>; expected: PostOutcome }>([
    { status: 200, expected: { kind: 'delivered', status: 200, ...base } },
    { status: 204, expected: { kind: 'delivered', status: 204, ...base } },
    { status: 299, expected: { kind: 'delivered', status: 299, ...base } },
    { status: 410, expected: { kind: 'gone', status: 410, ...base } },
    { status: 404, expected: { kind: 'failed', status: 404, error: 'HTTP 404', ...base } },
    { status: 500, headers: { 'retry-after': '60' }, expected: { kind: 'failed', status: 500, error: 'HTTP 500', ...base } },
    { status: 503, headers: { 'retry-after': '60' }, expected: { kind: 'failed', status: 503, error: 'HTTP 503', retryAfterMs: 60_000, ...base } },
    {
      status: 429,
      headers: { 'retry-after': 'Wed, 21 Oct 2015 07:30:00 GMT' },
      expected: { kind: 'failed', status: 429, error: 'HTTP 429', retryAfterMs: 120_000, ...base },
    },
    { status: 429, headers: { 'retry-after': 'later' }, expected: { kind: 'failed', status: 429, error: 'HTTP 429', ...base } },
    { status: 302, headers: { location: '/elsewhere' }, expected: { kind: 'failed', status: 302, error: 'redirect 302 not followed', ...base } },
    { status: 301, expected: { kind: 'failed', status: 301, error: 'redirect 301 not followed', ...base } },
    { status: 199, expected: { kind: 'failed', status: 199, error: 'HTTP 199', ...base } },
  ])('$status', ({ status, headers = {}, expected }) => {
    expect(outcomeOfResponse({ status, headers, ...base }, now)).toEqual(expected);
  });
});

describe('describeNetworkError', () => {
  it.each([
    { error: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }), expected: 'connect ECONNREFUSED 127.0.0.1:1' },
    { error: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }), expected: 'UND_ERR_SOCKET: other side closed' },
    { error: new Error('plain'), expected: 'plain' },
    {
      error: new AggregateError([Object.assign(new Error('connect ECONNREFUSED ::1:1'), { code: 'ECONNREFUSED' }), new Error('second')]),
      expected: 'connect ECONNREFUSED ::1:1; second',
    },
    { error: 'a string', expected: 'a string' },
  ])('$expected', ({ error, expected }) => {
    expect(describeNetworkError(error)).toBe(expected);
  });
});
