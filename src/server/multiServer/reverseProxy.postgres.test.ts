import { writeFileSync } from "node:fs";
import { createConnection, createServer, type Server } from "node:net";
import { join } from "node:path";
import { PROTOCOL_VERSION } from "../../protocol/index.ts";
import { CliProcess } from "../testing/cliProcess.ts";
import { tempDir } from "../testing/helpers.ts";
import { ASK_COLOUR_TURN } from "../testing/scenarioTurns.ts";
import { kindIs } from "../testing/serversOnPostgres.ts";
import { startTestPostgres, type TestPostgres } from "../testing/testPostgres.ts";
import { TestClient } from "../testing/wsClient.ts";

const scenario = `
turns:${ASK_COLOUR_TURN}
`;
const TOKEN = "proxy-test-token";

/** A plain round-robin TCP proxy, as nginx or Caddy without stickiness would balance. */
function roundRobinProxy(upstreams: { host: string; port: () => number }[]) {
  const picked: string[] = [];
  let next = 0;
  const server: Server = createServer((downstream) => {
    const target = upstreams[next++ % upstreams.length]!;
    picked.push(target.host);
    const upstream = createConnection({ host: target.host, port: target.port() });
    downstream.pipe(upstream).pipe(downstream);
    const close = () => {
      downstream.destroy();
      upstream.destroy();
    };
    downstream.on("error", close);
    upstream.on("error", close);
  });
  return { server, picked };
}

let postgres: TestPostgres;
let dir: ReturnType<typeof tempDir>;
const running: CliProcess[] = [];
const clients: TestClient[] = [];
beforeAll(async () => {
  postgres = await startTestPostgres();
  dir = tempDir();
  writeFileSync(join(dir.path, "README.md"), "# proxy test\n");
  writeFileSync(join(dir.path, "scenario.yaml"), scenario);
}, 60_000);
afterAll(async () => {
  for (const client of clients.splice(0)) client.close();
  for (const cli of running.splice(0)) await cli.kill();
  await postgres?.stop();
  dir?.remove();
});

describe("[S2] two servers behind one reverse proxy, no stickiness", () => {
  it("[S2][R1] the page's cookie works on both; a question asked through one connection is answered through another that lands on the other server", async () => {
    const dbUrl = await postgres.newDatabase();
    let port = 0;
    const proxy = roundRobinProxy([
      { host: "127.0.0.2", port: () => port },
      { host: "127.0.0.3", port: () => port },
    ]);
    await new Promise<void>((resolve) => proxy.server.listen(0, "127.0.0.1", resolve));
    const address = proxy.server.address();
    port = typeof address === "object" && address ? address.port : 0;
    try {
      for (const host of ["127.0.0.2", "127.0.0.3"]) {
        const cli = CliProcess.spawn(
          ["--host", host, "--port", String(port), "--workspace", dir.path].concat([
            ...["--db", dbUrl, "--token", TOKEN, "--no-build"],
            ...["--model", `scripted:${join(dir.path, "scenario.yaml")}`],
          ]),
        );
        running.push(cli);
        // The URL to open is the proxy's: 127.0.0.1 and the shared port.
        expect((await cli.url()).host).toBe(`127.0.0.1:${port}`);
      }
      const origin = `http://127.0.0.1:${port}`;
      const opened = await fetch(`${origin}/?token=${TOKEN}`, {
        redirect: "manual",
        headers: { connection: "close" },
      });
      expect(opened.status).toBe(302);
      const cookie = (opened.headers.get("set-cookie") ?? "").split(";")[0]!;
      expect(cookie).toBe(`plangate_token_${port}=${TOKEN}`);

      const greeted = async () => {
        const client = await TestClient.open(`ws://127.0.0.1:${port}/ws`, { origin, cookie });
        clients.push(client);
        client.send({ type: "hello", protocol: PROTOCOL_VERSION });
        await client.next("welcome");
        return client;
      };
      const first = await greeted();
      const second = await greeted();
      expect(new Set(proxy.picked.slice(-2))).toEqual(new Set(["127.0.0.2", "127.0.0.3"]));

      first.send({ type: "session.create", title: "through the proxy" });
      const sessionId = (await first.next("snapshot")).session.id;
      second.send({ type: "session.open", sessionId });
      await second.next("snapshot", (frame) => frame.session.id === sessionId);
      first.send({ type: "prompt", sessionId, text: "ask me" });
      const requested = await second.next("event", kindIs(sessionId, "interaction.requested"));
      if (requested.entry.kind !== "interaction.requested") throw new Error("unreachable");
      second.send({
        type: "interaction.answer",
        interactionId: requested.entry.request.interactionId,
        answers: { "Which colour?": { labels: ["Blue"] } },
      });
      expect(await second.next("receipt")).toMatchObject({ ok: true });
      const noted = await first.next("event", kindIs(sessionId, "assistant.message"));
      expect(noted.entry).toMatchObject({ text: expect.stringContaining("Blue") });
    } finally {
      proxy.server.close();
    }
  }, 60_000);
});
