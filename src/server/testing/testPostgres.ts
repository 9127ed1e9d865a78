import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

export interface TestPostgres {
  /** A fresh, empty database of its own. */
  url: string;
  /** Another fresh database on the same server (a second plangate, a migration test). */
  newDatabase(): Promise<string>;
  stop(): Promise<void>;
}

/** Where `PLANGATE_TEST_PG_URL` points tests at a server someone else runs. */
const EXTERNAL_URL = process.env.PLANGATE_TEST_PG_URL;

/**
 * S1: a real PostgreSQL for a test file. With `PLANGATE_TEST_PG_URL` it makes a database on
 * that server; otherwise it runs a throwaway cluster from Debian's binaries on a free loopback
 * port (as the `postgres` user when the tests run as root, since PostgreSQL refuses root).
 * It never skips: without PostgreSQL the test fails and says how to get one.
 */
export async function startTestPostgres(): Promise<TestPostgres> {
  if (EXTERNAL_URL) return onServer(EXTERNAL_URL, async () => {});
  const bin = postgresBinDir();
  const dir = mkdtempSync(join(tmpdir(), "plangate-pg-"));
  const asUser = runAsUnprivileged(dir);
  const data = join(dir, "data");
  execFileSync(
    ...asUser(join(bin, "initdb"), [
      ...["-D", data, "-U", "plangate", "--auth=trust", "-N", "-E", "UTF8", "--locale=C"],
    ]),
    { stdio: "pipe" },
  );
  const port = await freePort();
  // Durability settings off: the cluster lives for one test file.
  const server = spawn(
    ...asUser(join(bin, "postgres"), [
      ...["-D", data, "-p", String(port), "-k", dir, "-c", "listen_addresses=127.0.0.1"],
      ...["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"],
    ]),
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  server.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const adminUrl = `postgres://plangate@127.0.0.1:${port}/postgres`;
  try {
    await waitUntilReady(adminUrl, server, () => stderr);
  } catch (error) {
    await stopServer(server);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return onServer(adminUrl, async () => {
    await stopServer(server);
    rmSync(dir, { recursive: true, force: true });
  });
}

async function onServer(adminUrl: string, shutdown: () => Promise<void>): Promise<TestPostgres> {
  const made: string[] = [];
  const newDatabase = async () => {
    const name = `plangate_test_${randomBytes(6).toString("hex")}`;
    await withClient(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
    made.push(name);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return url.toString();
  };
  const url = await newDatabase();
  return {
    url,
    newDatabase,
    async stop() {
      if (EXTERNAL_URL) {
        await withClient(adminUrl, async (client) => {
          for (const name of made)
            await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        });
      }
      await shutdown();
    },
  };
}

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

function postgresBinDir(): string {
  const fromEnv = process.env.PLANGATE_PG_BIN;
  if (fromEnv) return fromEnv;
  const debian = "/usr/lib/postgresql";
  const versions = existsSync(debian)
    ? readdirSync(debian)
        .filter((name) => existsSync(join(debian, name, "bin", "initdb")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions[0]) return join(debian, versions[0], "bin");
  try {
    return execFileSync("pg_config", ["--bindir"], { encoding: "utf8" }).trim();
  } catch {
    throw new Error(
      "The PostgreSQL store tests need PostgreSQL: install Debian's package " +
        "(apt-get install -y postgresql; .ci/run does it), set PLANGATE_PG_BIN to the folder " +
        "with initdb and postgres, or set PLANGATE_TEST_PG_URL to a server to use.",
    );
  }
}

/** PostgreSQL will not run as root; as root, run it as the `postgres` user on a folder it owns. */
function runAsUnprivileged(dir: string): (program: string, args: string[]) => [string, string[]] {
  if (process.getuid?.() !== 0) return (program, args) => [program, args];
  const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
  const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
  chownSync(dir, uid, gid);
  return (program, args) => [
    "setpriv",
    [`--reuid=${uid}`, `--regid=${gid}`, "--clear-groups", program, ...args],
  ];
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === "object" && address ? resolvePort(address.port) : reject(),
      );
    });
  });
}

async function waitUntilReady(url: string, server: ChildProcess, log: () => string): Promise<void> {
  const until = Date.now() + 20_000;
  for (;;) {
    if (server.exitCode !== null) {
      throw new Error(`PostgreSQL stopped at start (exit ${server.exitCode}):\n${log()}`);
    }
    try {
      await withClient(url, (client) => client.query("SELECT 1"));
      return;
    } catch (error) {
      if (Date.now() > until) {
        throw new Error(`PostgreSQL did not accept connections in 20 s: ${error}\n${log()}`);
      }
      await new Promise((resolveWait) => setTimeout(resolveWait, 100));
    }
  }
}

function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return Promise.resolve();
  return new Promise((resolveStop) => {
    server.once("exit", () => resolveStop());
    // SIGQUIT: immediate shutdown; the cluster is thrown away anyway.
    server.kill("SIGQUIT");
  });
}
