import { Worker } from "node:worker_threads";
import { PROTOCOL_VERSION } from "../../protocol/index.ts";
import { ASK_COLOUR_TURN } from "../testing/scenarioTurns.ts";
import { sessionOnBoth, useServersOnPostgres } from "../testing/serversOnPostgres.ts";
import { TestClient } from "../testing/wsClient.ts";

const scenario = `
turns:${ASK_COLOUR_TURN}
`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The network between the servers and PostgreSQL: it can be cut (connections refused) and
 * mended. On a thread of its own: a server's main thread waits on its store synchronously.
 */
const LINK = `
const { parentPort, workerData } = require("node:worker_threads");
const net = require("node:net");
const open = new Set();
const server = net.createServer((downstream) => {
  const upstream = net.createConnection({ host: workerData.host, port: workerData.port });
  open.add(downstream).add(upstream);
  downstream.pipe(upstream).pipe(downstream);
  const close = () => {
    downstream.destroy();
    upstream.destroy();
    open.delete(downstream);
    open.delete(upstream);
  };
  for (const socket of [downstream, upstream]) {
    socket.on("error", close);
    socket.on("close", close);
  }
});
let port = 0;
const listen = () => server.listen(port, "127.0.0.1", () => {
  port = server.address().port;
  parentPort.postMessage(port);
});
parentPort.on("message", (command) => {
  if (command === "mend") return listen();
  server.close(() => parentPort.postMessage("cut"));
  for (const socket of open) socket.destroy();
  open.clear();
});
listen();
`;

async function cuttableLink(target: URL) {
  const worker = new Worker(LINK, {
    eval: true,
    workerData: { host: target.hostname, port: Number(target.port) },
  });
  const reply = () => new Promise<unknown>((resolve) => worker.once("message", resolve));
  const port = (await reply()) as number;
  return {
    url: (database: URL) => {
      const through = new URL(database);
      through.port = String(port);
      return through.toString();
    },
    async cut() {
      worker.postMessage("cut");
      await reply();
    },
    async mend() {
      worker.postMessage("mend");
      await reply();
    },
    close: () => worker.terminate(),
  };
}

describe("[S2][R3] PostgreSQL away under several servers", () => {
  const servers = useServersOnPostgres(scenario);

  it("[S2][R3][W3] every server's pages hear the store is unreachable and back, refusals carry no address, and each log says it once", async () => {
    const database = new URL(await servers.postgres().newDatabase());
    const link = await cuttableLink(database);
    const logs: Record<string, string[]> = { a: [], b: [] };
    const errors = vi.spyOn(console, "error");
    try {
      const started: Awaited<ReturnType<typeof servers.start>>["started"] = [];
      for (const name of ["a", "b"] as const) {
        const { started: one } = await servers.start(1, {
          dbPath: link.url(database),
          storageHealth: { probeEveryMs: 200, log: (line) => logs[name]!.push(line) },
        });
        started.push(...one);
      }
      const [a, b] = started as [(typeof started)[0], (typeof started)[0]];
      const sessionId = await sessionOnBoth(a.client, b.client, "outage");

      await link.cut();
      // Each server notices on its own, even one whose pages did nothing.
      for (const { client } of [a, b]) {
        const failing = await client.next("storage.changed");
        expect(failing.health).toEqual({ state: "failing", problem: "unreachable" });
      }
      a.client.send({ type: "composer.draft", sessionId, text: "kept for later" });
      const refused = await a.client.next("error", (frame) => frame.ref === "composer.draft");
      expect(refused.code).toBe("STORAGE_FAILED");
      expect(refused.message).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|postgres/i);

      // A page that opens now waits, told why, and is welcomed once the store is back.
      const fresh = await TestClient.open(b.server.wsUrl, b.server.browserHeaders);
      fresh.send({ type: "hello", protocol: PROTOCOL_VERSION });
      expect((await fresh.next("storage.changed")).health.state).toBe("failing");
      expect((await fresh.next("error")).code).toBe("STORAGE_FAILED");
      // Several take-over beats and listener retries go by.
      await sleep(2_500);
      expect(fresh.frames.some((frame) => frame.type === "welcome")).toBe(false);

      await link.mend();
      for (const { client } of [a, b]) {
        const back = await client.next("storage.changed", (frame) => frame.health.state === "ok");
        expect(back.health).toEqual({ state: "ok" });
      }
      const welcome = await fresh.next("welcome");
      expect(welcome.sessions.map((session) => session.id)).toContain(sessionId);
      fresh.close();

      for (const name of ["a", "b"] as const) {
        const lines = logs[name]!;
        expect(
          lines.filter((line) => line.includes("cannot be reached")),
          lines.join("\n"),
        ).toHaveLength(1);
        expect(lines.at(-1)).toMatch(/^plangate: the store takes writes again, after /);
        expect(lines.join("\n")).not.toContain("    at ");
      }
      // Nothing else logged a stack for it.
      const printed = errors.mock.calls.flat().map(String).join("\n");
      expect(printed).not.toMatch(/ECONNREFUSED|ECONNRESET/);
    } finally {
      errors.mockRestore();
      await link.close().catch(() => {});
    }
  }, 60_000);
});
