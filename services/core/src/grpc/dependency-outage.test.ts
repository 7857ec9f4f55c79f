import { isDependencyOutage } from './dependency-outage.js';

const withCode = (message: string, code: string, name = 'Error') => Object.assign(new Error(message), { code, name });

describe('isDependencyOutage', () => {
  test.each([
    ['PostgreSQL unreachable (Prisma P1001)', withCode("Can't reach database server at 127.0.0.1:5432", 'P1001', 'PrismaClientKnownRequestError')],
    ['a pool with no connection to give (P2024)', withCode('Timed out fetching a new connection from the connection pool', 'P2024', 'PrismaClientKnownRequestError')],
    ['Prisma unable to start', Object.assign(new Error('cannot connect'), { name: 'PrismaClientInitializationError' })],
    ['Redis retries spent', Object.assign(new Error('Reached the max retries per request limit (which is 2).'), { name: 'MaxRetriesPerRequestError' })],
    ['Redis offline with no queue', new Error("Stream isn't writeable and enableOfflineQueue options is false")],
    ['Redis command timeout', new Error('Command timed out')],
    ['ClickHouse refused, under a fetch failure', new Error('fetch failed', { cause: withCode('connect ECONNREFUSED 127.0.0.1:18123', 'ECONNREFUSED') })],
  ])('%s is an outage', (_name, error) => {
    expect(isDependencyOutage(error)).toBe(true);
  });

  test.each([
    ['a unique-constraint violation (P2002)', withCode('Unique constraint failed', 'P2002', 'PrismaClientKnownRequestError')],
    ['an invalid byte sequence from PostgreSQL', withCode('invalid byte sequence for encoding "UTF8": 0x00', '22021')],
    ['a programming error', new TypeError("Cannot read properties of undefined (reading 'x')")],
    ['a string thrown', 'ECONNREFUSED'],
    ['nothing', undefined],
  ])('%s is not', (_name, error) => {
    expect(isDependencyOutage(error)).toBe(false);
  });
});
