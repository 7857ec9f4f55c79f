// Failures that say a store or broker could not be reached, not that the request was wrong: the
// same request succeeds once it is back, so callers answer UNAVAILABLE (HTTP 503 with
// Retry-After), never INTERNAL (500).

/** Prisma's codes for a database it cannot reach, that closed the connection, or a pool with no connection to give. */
const prismaOutageCodes = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
/** Node's socket errors for a peer that is down or gone. */
const socketOutageCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT']);
/** ioredis's errors while the server is unreachable (offline queue disabled, retries spent, command timed out). */
const redisOutageMessages = [/^Connection is closed\.?$/, /^Stream isn't writeable/, /^Command timed out$/, /^Reached the max retries per request limit/];

function isOutage(error: object): boolean {
  const { name, code, message } = error as { name?: unknown; code?: unknown; message?: unknown };
  if (name === 'PrismaClientInitializationError' || name === 'MaxRetriesPerRequestError') return true;
  if (typeof code === 'string' && (prismaOutageCodes.has(code) || socketOutageCodes.has(code))) return true;
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
