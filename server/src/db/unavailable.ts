/**
 * Whether an error means PostgreSQL cannot be reached (down, restarting, shutting down, or the
 * connection to it cut), as opposed to a fault of the query or of our code. Such a request is
 * answered 503; the pool opens new connections by itself once the database is back.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (typeof e !== 'object') return false;
    const { code, name, message } = e as { code?: unknown; name?: unknown; message?: unknown };
    if (typeof code === 'string' && unavailableCodes.has(code)) return true;
    // Knex gave up waiting for a connection from its pool.
    if (name === 'KnexTimeoutError') return true;
    if (typeof message === 'string' && unavailableMessages.test(message)) return true;
  }
  return false;
}

const unavailableCodes = new Set([
  // The network: nobody listens, the host is gone, the connection was cut.
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  // PostgreSQL's class 08 (connection exception) and 57P01-57P03 (shut down, crash, starting up).
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '57P01',
  '57P02',
  '57P03',
]);

// pg says these without a code when the socket closes under a query; knex says 'Transaction
// query already complete' for the next query of a transaction whose connection was cut (a query
// after our own commit would say it too, but every route's tests would see that as a non-200).
const unavailableMessages =
  /Connection terminated|connection error|Timeout acquiring a connection|the database system is (starting up|shutting down)|Transaction query already complete/i;
