import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { startTestPostgres, type TestPostgres } from "../../testing/testPostgres.ts";
import type { SqlDb } from "../sqlDb.ts";
import { openPgSqlDb, PgError } from "./pgSqlDb.ts";

// A TCP relay to PostgreSQL that can stop answering without closing anything, as a server that
// hangs or a network cut without a reset does. It runs in a process of its own: the store waits
// for its answers on this test's thread, which could not relay them meanwhile.
const RELAY = `
const net = require("node:net");
const [host, port] = process.argv.slice(1);
let hung = false;
const held = [];
const relay = (from, to) => from.on("data", (chunk) => {
  if (hung) held.push(() => to.write(chunk)); else to.write(chunk);
});
net.createServer((client) => {
  const server = net.connect(Number(port), host);
  relay(client, server);
  relay(server, client);
  const close = () => { client.destroy(); server.destroy(); };
  client.on("error", close); server.on("error", close); client.on("close", close); server.on("close", close);
}).listen(0, "127.0.0.1", function () { console.log(this.address().port); });
process.stdin.on("data", (line) => {
  hung = String(line).trim() === "hang";
  if (!hung) for (const send of held.splice(0)) send();
});
`;

function errorOf(run: () => unknown): PgError {
  try {
    run();
  } catch (error) {
    if (error instanceof PgError) return error;
    throw error;
  }
  throw new Error("expected the statement to fail");
}

describe("[S1] a PostgreSQL that stops answering", () => {
  let server: TestPostgres;
  let relay: ChildProcess;
  let db: SqlDb | undefined;
  beforeAll(async () => {
    server = await startTestPostgres();
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });
  afterEach(() => {
    db?.close();
    relay?.kill();
  });

  it("[S1] costs one timeout, then statements fail at once until it answers again, then they go through", async () => {
    const target = new URL(await server.newDatabase());
    relay = spawn(process.execPath, ["-e", RELAY, target.hostname, target.port], {
      stdio: ["pipe", "pipe", "inherit"],
    });
    const [line] = (await once(relay.stdout!, "data")) as [Buffer];
    const through = new URL(target);
    through.port = line.toString().trim();
    db = openPgSqlDb(through.toString(), { answerTimeoutMs: 2_000 });
    const open = db;
    expect(open.get("SELECT 1 AS one")).toEqual({ one: 1 });

    relay.stdin!.write("hang\n");
    const first = errorOf(() => open.get("SELECT 2 AS two"));
    expect(first.code).toBe("PG_TIMEOUT");
    // The next statement does not wait out a timeout of its own: the store knows already.
    const next = errorOf(() => open.get("SELECT 3 AS three"));
    expect(next).toMatchObject({ code: "PG_TIMEOUT" });
    expect(next.message).toMatch(/not answering/);

    relay.stdin!.write("resume\n");
    await vi.waitFor(() => expect(open.get("SELECT 4 AS four")).toEqual({ four: 4 }), {
      timeout: 20_000,
      interval: 200,
    });
  }, 40_000);
});
