import { isDependencyOutage } from './dependency-outage.js';

const withCode = (message: string, code: string, name = 'Error') => Object.assign(new Error(message), { code, name });

describe('isDependencyOutage', () => {
  test.each([
    ['PostgreSQL unreachable (Prisma P1001)', withCode("Can't reach database server at 127.0.0.1:5432", 'P1001', 'PrismaClientKnownRequestError')],
    [
      'a pool with no connection to give (P2024)',
      withCode('Timed out fetching a new connection from the connection pool', 'P2024', 'PrismaClientKnownRequestError'),
    ],
    [
      'PostgreSQL unreachable under a raw query (Prisma P2010)',
      withCode(
        "Invalid `prisma.$queryRaw()` invocation:\n\nRaw query failed. Code: `N/A`. Message: `Can't reach database server at 127.0.0.1:5432`",
        'P2010',
        'PrismaClientKnownRequestError',
      ),
    ],
    [
      'PostgreSQL starting up, under a raw query',
      withCode('Raw query failed. Code: `57P03`. Message: `the database system is starting up`', 'P2010', 'PrismaClientKnownRequestError'),
    ],
    ['PostgreSQL shutting down (pg SQLSTATE 57P01)', withCode('terminating connection due to administrator command', '57P01')],
    ['Prisma unable to start', Object.assign(new Error('cannot connect'), { name: 'PrismaClientInitializationError' })],
    ['Redis retries spent', Object.assign(new Error('Reached the max retries per request limit (which is 2).'), { name: 'MaxRetriesPerRequestError' })],
    ['Redis offline with no queue', new Error("Stream isn't writeable and enableOfflineQueue options is false")],
    ['Redis command timeout', new Error('Command timed out')],
    [
      'another service unavailable (gRPC 14)',
      Object.assign(new Error('14 UNAVAILABLE: a dependency is unreachable'), { code: 14, details: 'a dependency is unreachable', metadata: {} }),
    ],
    [
      'another service past its deadline (gRPC 4)',
      Object.assign(new Error('4 DEADLINE_EXCEEDED: Deadline exceeded'), { code: 4, details: 'Deadline exceeded', metadata: {} }),
    ],
    ['ClickHouse refused, under a fetch failure', new Error('fetch failed', { cause: withCode('connect ECONNREFUSED 127.0.0.1:18123', 'ECONNREFUSED') })],
  ])('%s is an outage', (_name, error) => {
    expect(isDependencyOutage(error)).toBe(true);
  });

  test.each([
    [
      'a raw query refused by PostgreSQL (P2010, a syntax error)',
      withCode('Raw query failed. Code: `42601`. Message: `syntax error at or near "x"`', 'P2010', 'PrismaClientKnownRequestError'),
    ],
    ['a unique-constraint violation (P2002)', withCode('Unique constraint failed', 'P2002', 'PrismaClientKnownRequestError')],
    ['an invalid byte sequence from PostgreSQL', withCode('invalid byte sequence for encoding "UTF8": 0x00', '22021')],
    ['another service refusing the request (gRPC 3)', Object.assign(new Error('3 INVALID_ARGUMENT: no'), { code: 3, details: 'no', metadata: {} })],
    ['another service failing (gRPC 13)', Object.assign(new Error('13 INTERNAL: internal error'), { code: 13, details: 'internal error', metadata: {} })],
    ['a programming error', new TypeError("Cannot read properties of undefined (reading 'x')")],
    ['a string thrown', 'ECONNREFUSED'],
    ['nothing', undefined],
  ])('%s is not', (_name, error) => {
    expect(isDependencyOutage(error)).toBe(false);
  });
});
