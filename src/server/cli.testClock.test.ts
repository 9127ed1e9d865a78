import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import Database from "better-sqlite3";
import { CliProcess } from "./testing/cliProcess.ts";
import { tempDir } from "./testing/helpers.ts";
import { ServerClock } from "./testing/serverClock.ts";
import { TestClient } from "./testing/wsClient.ts";

const START = 1_767_000_000_000;
const TOKEN = "clock-test-token";
const STEP = { type: "plangate.clock.advance", id: 1, ms: 3_600_000 };

describe("the CLI on a test clock (--test-clock)", () => {
  let dir: ReturnType<typeof tempDir>;
  const running: CliProcess[] = [];

  beforeEach(() => {
    dir = tempDir();
    writeFileSync(join(dir.path, "README.md"), "# clock test\n");
  });
  afterEach(async () => {
    for (const cli of running.splice(0)) await cli.kill();
    dir.remove();
  });

  const spawn = (extra: string[], ipc: boolean) => {
    const args = ["--port", "0", "--workspace", dir.path, "--token", TOKEN, "--no-build"];
    const cli = CliProcess.spawn([...args, ...extra], { ipc });
    running.push(cli);
    return cli;
  };

  const serverNow = async (url: URL) => {
    const { client, welcome } = await TestClient.greeted(`ws://${url.host}/ws?token=${TOKEN}`);
    client.close();
    return welcome.serverNow;
  };

  it("[R1] refuses to start without a parent's IPC channel, as `npm start` from a shell has none", async () => {
    const cli = spawn(["--test-clock", String(START)], false);
    expect(await cli.exited()).toBe(1);
    expect(cli.output).toMatch(/--test-clock is for tests only/);
    expect(cli.output).not.toMatch(/token=/);
  }, 60_000);

  it("[R1] `npm run dev` refuses the flag rather than running on real time unnoticed", async () => {
    const root = resolve(import.meta.dirname, "../..");
    const dev = CliProcess.node(
      ["--import", "tsx", "src/server/dev.ts", "--workspace", dir.path, "--test-clock", "1"],
      root,
      { ipc: true },
    );
    running.push(dev);
    expect(await dev.exited()).toBe(1);
    expect(dev.output).toContain("--test-clock runs under npm start only");
  }, 60_000);

  it("[R1][A3] only the parent's IPC channel moves the time: no HTTP route, WebSocket frame or MCP tool does", async () => {
    const clock = new ServerClock(START);
    const cli = spawn(clock.args(), true);
    clock.attach(cli.child);
    const url = await cli.url();
    const origin = `http://${url.host}`;
    expect(await serverNow(url)).toBe(START);

    // A page (same origin with the token, or another port's page) and a hostile agent try.
    const { client } = await TestClient.greeted(`ws://${url.host}/ws?token=${TOKEN}`);
    for (const frame of [STEP, { type: "clock.advance", ms: 3_600_000 }]) {
      client.send(frame);
      expect((await client.next("error")).type).toBe("error");
    }
    client.close();
    for (const path of ["/clock", "/test-clock", "/plangate.clock.advance", "/mcp"]) {
      for (const from of [origin, "http://127.0.0.1:1"]) {
        const response = await fetch(`${origin}${path}`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${TOKEN}`,
            origin: from,
            "content-type": "application/json",
          },
          body: JSON.stringify(STEP),
        });
        expect(response.status, `${path} from ${from}`).toBeGreaterThanOrEqual(400);
      }
    }
    const agent = new Client({ name: "hostile-agent", version: "1.0.0" });
    await agent.connect(
      new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      }),
    );
    const { tools } = await agent.listTools();
    expect(tools.map((tool) => tool.name).filter((name) => /clock|time/i.test(name))).toEqual([]);
    await agent.close();
    expect(await serverNow(url)).toBe(START);

    expect(await clock.advance(1_500)).toBe(START + 1_500);
    expect(await serverNow(url)).toBe(START + 1_500);
  }, 60_000);

  /** Everything the log holds, read without writing. */
  const logRows = (path: string) => {
    const db = new Database(path, { readonly: true });
    try {
      return {
        sessions: db.prepare("SELECT * FROM sessions ORDER BY id").all(),
        entries: db.prepare("SELECT * FROM entries ORDER BY session_id, seq").all(),
      };
    } finally {
      db.close();
    }
  };

  it("[A7][R6] refuses a restart on a clock earlier than the latest time in its log: exit 1, a clear error, nothing written", async () => {
    const clock = new ServerClock(START);
    const first = spawn(clock.args(), true);
    clock.attach(first.child);
    const url = await first.url();
    await clock.advance(60_000);
    const { client } = await TestClient.greeted(`ws://${url.host}/ws?token=${TOKEN}`);
    client.send({ type: "session.create", title: "written at a minute past" });
    const { session } = await client.next("snapshot");
    client.close();
    await first.kill();
    const dbPath = join(dir.path, ".zcode", "plangate.db");
    const before = logRows(dbPath);
    expect(before.entries).toEqual([
      expect.objectContaining({ session_id: session.id, at: START + 60_000 }),
    ]);

    const early = spawn(["--test-clock", String(START + 59_999)], true);
    await expect(early.url()).rejects.toThrow(/exited with 1/);
    expect(early.output).toContain(
      `--test-clock ${START + 59_999} is earlier than the latest time in the session log (${START + 60_000})`,
    );
    expect(early.output).not.toMatch(/token=/);
    expect(logRows(dbPath)).toEqual(before);

    // From the latest time itself it starts: the log's time may stand still, not run back.
    const later = new ServerClock(START + 60_000);
    const second = spawn(later.args(), true);
    later.attach(second.child);
    expect(await serverNow(await second.url())).toBe(START + 60_000);
  }, 60_000);

  it("[R1] without the flag a parent's step is ignored: the server keeps real time", async () => {
    const cli = spawn([], true);
    const url = await cli.url();
    cli.child.send(STEP);
    const before = Date.now();
    const now = await serverNow(url);
    // An hour's step would show; the real clock moved seconds at most.
    expect(now).toBeGreaterThan(before - 60_000);
    expect(now).toBeLessThan(Date.now() + 60_000);
  }, 60_000);
});
