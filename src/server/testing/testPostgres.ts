import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  chownSync,
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
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
 * Set by the vitest global setup (postgresGlobalSetup.ts): a folder through which the test files
 * of one run share one throwaway cluster, started by the first file that needs it.
 */
export const SHARED_CLUSTER_ENV = "PLANGATE_TEST_PG_SHARED";
const SHARED_DIR = process.env[SHARED_CLUSTER_ENV];

/**
 * S1: a real PostgreSQL for a test file. With `PLANGATE_TEST_PG_URL` it makes a database on
 * that server; under vitest, on the run's shared cluster; otherwise it runs a throwaway cluster
 * from Debian's binaries on a free loopback port (as the `postgres` user when the tests run as
 * root, since PostgreSQL refuses root). Every file gets fresh databases of its own, so files
 * sharing a server never see each other's data. It never skips: without PostgreSQL the test
 * fails and says how to get one.
 */
export async function startTestPostgres(): Promise<TestPostgres> {
  if (EXTERNAL_URL) return onServer(EXTERNAL_URL, true, async () => {});
  if (SHARED_DIR) return onServer(await sharedCluster(SHARED_DIR), false, async () => {});
  const cluster = await startCluster();
  return onServer(cluster.adminUrl, false, cluster.stop);
}

interface Cluster {
  adminUrl: string;
  /** The folder holding the data directory and the socket; removed on stop. */
  dir: string;
  stop(): Promise<void>;
}

/**
 * Starts a throwaway cluster. `detached`: it outlives the process that started it (the shared
 * cluster is started by one test file's worker and stopped by the global teardown), so it gets
 * its own process group and logs to a file instead of a pipe.
 */
async function startCluster(detached = false): Promise<Cluster> {
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
  const logFile = join(dir, "server.log");
  const logFd = detached ? openSync(logFile, "a") : undefined;
  // Durability settings off: the cluster is thrown away after the run. Room for the
  // connections of several test files at once when it is shared.
  const server = spawn(
    ...asUser(join(bin, "postgres"), [
      ...["-D", data, "-p", String(port), "-k", dir, "-c", "listen_addresses=127.0.0.1"],
      ...["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"],
      ...["-c", "max_connections=300"],
    ]),
    { stdio: ["ignore", "ignore", logFd ?? "pipe"], detached },
  );
  if (logFd !== undefined) closeSync(logFd);
  let stderr = "";
  server.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const log = () => (detached ? readTail(logFile) : stderr);
  const adminUrl = `postgres://plangate@127.0.0.1:${port}/postgres`;
  const stop = async () => {
    await stopServer(server);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitUntilReady(adminUrl, server, log);
  } catch (error) {
    await stop();
    throw error;
  }
  if (detached) server.unref();
  return { adminUrl, dir, stop };
}

/** Files in the shared folder: who starts the cluster, and what came of it. */
const sharedFiles = (shared: string) => ({
  starter: join(shared, "starter"),
  ready: join(shared, "ready.json"),
  failed: join(shared, "failed.txt"),
});

/**
 * The run's shared cluster: the first caller starts it (an exclusive mkdir decides who) and
 * writes its address; the others wait for that, or for its failure.
 */
async function sharedCluster(shared: string): Promise<string> {
  const files = sharedFiles(shared);
  let starter = true;
  try {
    mkdirSync(files.starter);
  } catch {
    starter = false;
  }
  if (starter) {
    try {
      const cluster = await startCluster(true);
      const temp = `${files.ready}.tmp`;
      writeFileSync(temp, JSON.stringify({ adminUrl: cluster.adminUrl, dir: cluster.dir }));
      renameSync(temp, files.ready);
      return cluster.adminUrl;
    } catch (error) {
      writeFileSync(files.failed, String(error));
      throw error;
    }
  }
  const until = Date.now() + 60_000;
  for (;;) {
    if (existsSync(files.ready)) {
      return (JSON.parse(readFileSync(files.ready, "utf8")) as { adminUrl: string }).adminUrl;
    }
    if (existsSync(files.failed)) {
      throw new Error(`The shared PostgreSQL did not start: ${readFileSync(files.failed, "utf8")}`);
    }
    if (Date.now() > until) throw new Error("The shared PostgreSQL did not start in 60 s");
    await new Promise((resolveWait) => setTimeout(resolveWait, 50));
  }
}

/** Global teardown: stops the shared cluster if a test file started one, and removes it. */
export async function stopSharedCluster(shared: string): Promise<void> {
  const { ready } = sharedFiles(shared);
  if (existsSync(ready)) {
    const { dir } = JSON.parse(readFileSync(ready, "utf8")) as { dir: string };
    const pid = Number(readFileSync(join(dir, "data", "postmaster.pid"), "utf8").split("\n")[0]);
    // SIGQUIT: immediate shutdown; the cluster is thrown away anyway.
    if (isAlive(pid)) process.kill(pid, "SIGQUIT");
    const until = Date.now() + 10_000;
    while (isAlive(pid) && Date.now() < until) {
      await new Promise((resolveWait) => setTimeout(resolveWait, 20));
    }
    rmSync(dir, { recursive: true, force: true });
  }
  rmSync(shared, { recursive: true, force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function readTail(path: string): string {
  try {
    return readFileSync(path, "utf8").slice(-4000);
  } catch {
    return "";
  }
}

/** `dropAtStop`: on a server that outlives the run, the file's databases are dropped after it. */
async function onServer(
  adminUrl: string,
  dropAtStop: boolean,
  shutdown: () => Promise<void>,
): Promise<TestPostgres> {
  const made: string[] = [];
  const newDatabase = async () => {
    const name = `plangate_test_${randomBytes(6).toString("hex")}`;
    await withClient(adminUrl, (client) =>
      client.query(`CREATE DATABASE ${name} TEMPLATE template0`),
    );
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
      if (dropAtStop) {
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
