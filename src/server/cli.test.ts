import { readFileSync, writeFileSync } from "node:fs";
import { createServer as createNetServer, type Server } from "node:net";
import { join } from "node:path";
import { PROTOCOL_VERSION, type StoredEntry } from "../protocol/index.ts";
import { agentTokenPath } from "./accessToken.ts";
import { messagesOf, RawMcpClient } from "./mcp/rawMcpClient.ts";
import { CliProcess } from "./testing/cliProcess.ts";
import { tempDir } from "./testing/helpers.ts";
import { TestClient } from "./testing/wsClient.ts";

const scenario = `
turns:
  - steps:
      - say: Reading.
        tools: [{ name: Read, input: { path: README.md } }]
      - say: Globbing.
        tools: [{ name: Glob, input: { pattern: "*" } }]
      - say: "a slow answer that streams for a while so the kill lands mid-turn"
        delayMs: 150
`;

describe("the CLI process", () => {
  let dir: ReturnType<typeof tempDir>;
  const running: CliProcess[] = [];
  const clients: TestClient[] = [];

  beforeEach(() => {
    dir = tempDir();
    writeFileSync(join(dir.path, "README.md"), "# kill -9 test\n");
    writeFileSync(join(dir.path, "scenario.yaml"), scenario);
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    for (const cli of running.splice(0)) await cli.kill();
    dir.remove();
  });

  const start = async (extra: string[] = []) => {
    const cli = CliProcess.spawn([
      "--port",
      "0",
      "--workspace",
      dir.path,
      "--model",
      `scripted:${join(dir.path, "scenario.yaml")}`,
      "--token",
      "secret-token",
      "--no-build",
      ...extra,
    ]);
    running.push(cli);
    const url = await cli.url();
    expect(url.searchParams.get("token")).toBe("secret-token");
    const client = await TestClient.open(`ws://${url.host}/ws?token=secret-token`);
    clients.push(client);
    client.send({ type: "hello", protocol: PROTOCOL_VERSION });
    await client.next("welcome");
    return { cli, client };
  };

  it("[R6] keeps every entry a client was sent across kill -9, and resumes the open turn", async () => {
    const first = await start();
    first.client.send({ type: "session.create", title: "durable" });
    const { session } = await first.client.next("snapshot");
    first.client.send({ type: "prompt", sessionId: session.id, text: "look around" });
    await first.client.next("assistant.delta", (f) => f.text.includes("slow"));
    const seen: StoredEntry[] = first.client
      .events(session.id)
      .map(({ seq, at, entry }) => ({ seq, at, entry }));
    expect(seen.map((e) => e.entry.kind)).toContain("tool.result");
    await first.cli.kill("SIGKILL");

    const second = await start();
    second.client.send({ type: "session.open", sessionId: session.id });
    const snapshot = await second.client.next("snapshot");
    for (const entry of seen) {
      expect(snapshot.entries.find((stored) => stored.seq === entry.seq)).toEqual(entry);
    }
    expect(snapshot.entries[0]?.entry.kind).toBe("session.created");
    const ended =
      snapshot.entries.find((e) => e.entry.kind === "turn.ended") ??
      (await second.client.next("event", (f) => f.entry.kind === "turn.ended"));
    expect(ended.entry).toEqual({ kind: "turn.ended", reason: "completed" });
  });

  it("[X1][B2] prints the MCP endpoint and the agent token, which opens /mcp and nothing else", async () => {
    const { cli } = await start();
    const printed = /^Agents over MCP: (\S+) with the header "Authorization: Bearer (\S+)"/m.exec(
      cli.output,
    );
    const endpoint = printed?.[1] ?? "";
    const agentToken = printed?.[2] ?? "";
    expect(agentToken).toBe(readFileSync(agentTokenPath(dir.path), "utf8").trim());
    expect(agentToken).not.toBe("secret-token");
    const reply = await new RawMcpClient(endpoint, agentToken).initialize("printed-hint");
    expect(reply.status).toBe(200);
    expect(JSON.stringify(messagesOf(reply))).toContain('"serverInfo"');

    // Where the agent's cards are answered, its token is no good.
    const origin = new URL(endpoint).origin;
    await expect(
      TestClient.open(`${origin.replace("http", "ws")}/ws?token=${agentToken}`),
    ).rejects.toThrow(/403/);
    const page = await fetch(`${origin}/?token=${agentToken}`, { redirect: "manual" });
    expect(page.status).toBe(403);
    const action = await fetch(`${origin}/push/action?token=${agentToken}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ interactionId: "int_x", action: "Approve" }),
    });
    expect(action.status).toBe(403);
  });

  it("exits with a clear error when the given port is taken", async () => {
    const blocker: Server = createNetServer();
    await new Promise<void>((listening) => blocker.listen(0, "127.0.0.1", listening));
    const port = (blocker.address() as { port: number }).port;
    try {
      const cli = CliProcess.spawn(["--port", String(port), "--workspace", dir.path, "--no-build"]);
      running.push(cli);
      expect(await cli.exited()).toBe(1);
      expect(cli.output).toContain(`Port ${port} is already in use`);
    } finally {
      blocker.close();
    }
  });
});
