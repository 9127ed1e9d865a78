// S1: the thread that owns the PostgreSQL connection of a synchronous PgSqlDb. It runs one
// request at a time and wakes the waiting main thread through the shared signal. Plain
// CommonJS because it is loaded by path, from the sources, under tsx and from the bundle.
const { parentPort, workerData } = require("node:worker_threads");
let pg;
let loadFailure;
try {
  pg = require(workerData.pgPath);
  // Timestamps and ids are BIGINT; every one plangate stores fits a double.
  pg.types.setTypeParser(20, Number);
} catch (error) {
  loadFailure = error;
}

const signal = new Int32Array(workerData.signal);
const replies = workerData.replies;
let client;
// The connection a transaction began on: its later statements must not run on a new one.
let transactionClient;
// Sent with every reply: the main thread learns that session state (advisory locks) was lost.
let connections = 0;

async function connected() {
  if (client) return client;
  const fresh = new pg.Client({
    connectionString: workerData.url,
    application_name: "plangate",
    // A hung server (or a cut without a reset) fails the statement instead of holding it forever.
    connectionTimeoutMillis: workerData.workerTimeoutMs,
    query_timeout: workerData.workerTimeoutMs,
    keepAlive: true,
  });
  const forget = () => {
    if (client === fresh) client = undefined;
  };
  fresh.on("error", forget);
  fresh.on("end", forget);
  await fresh.connect();
  connections += 1;
  client = fresh;
  return client;
}

function reply(message) {
  replies.postMessage(message);
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
}

/** pg's own words for its two timeouts: the main thread treats them as "not answering". */
function isTimeout(error) {
  const message = String(error?.message ?? "");
  return /^Query read timeout$|^Connection terminated due to connection timeout$|timeout expired/i.test(
    message,
  );
}

/** Whether PostgreSQL answers again, checked without holding the main thread. */
async function probe(request) {
  try {
    const db = await connected();
    await db.query("SELECT 1");
    replies.postMessage({ id: request.id, probe: true, connections });
  } catch (error) {
    if (client) {
      const broken = client;
      client = undefined;
      broken.end().catch(() => {});
    }
    // Not at once: a refused connection fails in a millisecond, and the next check follows it.
    await new Promise((resolve) => setTimeout(resolve, 500));
    replies.postMessage({
      id: request.id,
      probe: true,
      error: { message: String(error?.message ?? error), code: "PG_ERROR" },
    });
  }
}

parentPort.on("message", async (request) => {
  if (request.probe) {
    await probe(request);
    return;
  }
  try {
    if (loadFailure) throw new Error(`cannot load the pg client: ${loadFailure.message}`);
    if (request.close) {
      const open = client;
      client = undefined;
      if (open) await open.end();
      reply({ id: request.id, rows: [], rowCount: 0 });
      return;
    }
    if (request.inTransaction && request.sql !== "BEGIN" && client !== transactionClient) {
      if (request.sql === "ROLLBACK") transactionClient = undefined;
      throw Object.assign(new Error("the connection to PostgreSQL was lost in a transaction"), {
        code: "PG_CONNECTION_LOST",
      });
    }
    const db = await connected();
    if (request.sql === "BEGIN") transactionClient = db;
    if (request.sql === "COMMIT" || request.sql === "ROLLBACK") transactionClient = undefined;
    const result = await db.query(request.sql, request.params);
    const last = Array.isArray(result) ? result[result.length - 1] : result;
    reply({
      id: request.id,
      rows: last?.rows ?? [],
      rowCount: last?.rowCount ?? 0,
      connections,
    });
  } catch (error) {
    // No SQLSTATE: the connection itself failed; the next request opens a new one.
    if (!/^[0-9A-Z]{5}$/.test(String(error?.code ?? "")) && client && !request.close) {
      const broken = client;
      client = undefined;
      broken.end().catch(() => {});
    }
    reply({
      id: request.id,
      error: {
        message: String(error?.message ?? error),
        code: isTimeout(error) ? "PG_WORKER_TIMEOUT" : (error?.code ?? "PG_ERROR"),
      },
    });
  }
});
