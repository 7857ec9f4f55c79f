// Failures that say a store or broker could not be reached, not that the request was wrong: the
// same request succeeds once it is back, so callers answer UNAVAILABLE (HTTP 503 with
// Retry-After), never INTERNAL (500).

/** Prisma's codes for a database it cannot reach, that closed the connection, or a pool with no connection to give. */
const prismaOutageCodes = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
/** PostgreSQL's SQLSTATEs for a server shutting down, starting up, or a connection lost (pg errors carry them as `code`). */
const postgresOutageStates = new Set(['57P01', '57P02', '57P03', '08000', '08001', '08003', '08006']);
/** What Prisma says, whatever its code (a raw query's failure is P2010 with the cause in the message). */
const prismaOutageMessage =
  /Can't reach database server|the database system is (starting up|shutting down|in recovery mode)|terminating connection due to administrator command|Connection terminated unexpectedly|Code: `(57P0[123]|0800[0136])`/;
/** Node's socket errors for a peer that is down or gone. */
const socketOutageCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);
/** gRPC statuses of another service that is down, or whose own dependency is (UNAVAILABLE, DEADLINE_EXCEEDED). */
const grpcOutageCodes = new Set([14, 4]);
/** ioredis's errors while the server is unreachable (offline queue disabled, retries spent, command timed out). */
const redisOutageMessages = [/^Connection is closed\.?$/, /^Stream isn't writeable/, /^Command timed out$/, /^Reached the max retries per request limit/];

function isOutage(error: object): boolean {
  const { name, code, message } = error as { name?: unknown; code?: unknown; message?: unknown };
  if (name === 'PrismaClientInitializationError' || name === 'MaxRetriesPerRequestError') return true;
  if (typeof code === 'string' && (prismaOutageCodes.has(code) || socketOutageCodes.has(code) || postgresOutageStates.has(code))) return true;
  if (typeof name === 'string' && name.startsWith('PrismaClient') && typeof message === 'string' && prismaOutageMessage.test(message)) return true;
  // A call to another service that failed so: what this service answers fails for the same reason.
  if (typeof code === 'number' && 'metadata' in error && grpcOutageCodes.has(code)) return true;
  return typeof message === 'string' && redisOutageMessages.some((pattern) => pattern.test(message));
}

/** Whether `error`, or what caused it (three levels down), is an unreachable dependency. */
export function isDependencyOutage(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    if (isOutage(current)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
