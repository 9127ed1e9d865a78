import { readdirSync } from "node:fs";
import BetterSqlite3 from "better-sqlite3";
import { PROTOCOL_VERSION } from "../../protocol/index.ts";
import { CliError } from "../cliOptions.ts";
import { openDatabase } from "../store/database.ts";
import { NamedTokenStore } from "../store/namedTokens.ts";
import { CliProcess } from "../testing/cliProcess.ts";
import { tempDir } from "../testing/helpers.ts";
import { useScenarioServer } from "../testing/scenarioServer.ts";
import { ASK_COLOUR_TURN } from "../testing/scenarioTurns.ts";
import { TestClient } from "../testing/wsClient.ts";
import { runTokenCommand } from "../tokenCommand.ts";

const scenario = `
turns:${ASK_COLOUR_TURN}
`;

/** `npm start -- token …` as its own process, beside the running server, as a person runs it. */
async function tokenCli(args: string[]): Promise<{ code: number | null; output: string }> {
  const cli = CliProcess.spawn(["token", ...args]);
  const code = await cli.exited();
  return { code, output: cli.output };
}

describe("[S3] named access tokens against the running server", () => {
  const fixture = useScenarioServer(scenario);
  const { server } = fixture;
  const cli = (...args: string[]) =>
    tokenCli([...args, "--workspace", server().workspace, "--db", server().dbPath]);
  const origin = () => ({ origin: server().origin });
  const socketAs = (token: string) =>
    TestClient.open(`${server().wsUrl}?token=${token}`, origin()).then(fixture.track);

  it("[S3] issue → connect with it → the answer records the person and the device; revoke → the socket closes at once and a new connect is refused; the default token is unaffected", async () => {
    const issued = await cli("issue", "Alice");
    expect(issued.code, issued.output).toBe(0);
    const token = /^([0-9a-f]{64})$/m.exec(issued.output)?.[1];
    expect(token).toBeDefined();
    if (!token) return;
    // The link names the running server's own port, not the default one.
    expect(issued.output).toContain(`Alice opens ${server().origin}/?token=${token}`);

    // Only a hash is kept.
    const raw = new BetterSqlite3(server().dbPath, { readonly: true });
    const dump = JSON.stringify(raw.prepare("SELECT * FROM access_tokens").all());
    raw.close();
    expect(dump).toContain("Alice");
    expect(dump).not.toContain(token);

    const alice = await socketAs(token);
    alice.send({
      type: "hello",
      protocol: PROTOCOL_VERSION,
      device: { id: "dev-phone", label: "Safari on iPhone" },
    });
    await alice.next("welcome");
    alice.send({ type: "session.create", title: "colours" });
    const sessionId = (await alice.next("snapshot")).session.id;
    alice.send({ type: "prompt", sessionId, text: "ask me" });
    const requested = await alice.next(
      "event",
      (frame) => frame.sessionId === sessionId && frame.entry.kind === "interaction.requested",
    );
    if (requested.entry.kind !== "interaction.requested") throw new Error("unreachable");
    alice.send({
      type: "interaction.answer",
      interactionId: requested.entry.request.interactionId,
      answers: { "Which colour?": { labels: ["Red"] } },
    });
    const resolved = await alice.next(
      "event",
      (frame) => frame.sessionId === sessionId && frame.entry.kind === "interaction.resolved",
    );
    expect(resolved.entry).toMatchObject({
      outcome: {
        type: "answered",
        by: { deviceId: "dev-phone", label: "Safari on iPhone", person: "Alice" },
      },
    });

    const { client: owner } = await TestClient.greeted(server().wsUrl, server().browserHeaders);
    fixture.track(owner);

    const revoked = await cli("revoke", "Alice");
    expect(revoked.code, revoked.output).toBe(0);
    const closed = await alice.waitClosed();
    expect(closed).toMatchObject({ code: 4401, reason: "access revoked" });
    await expect(socketAs(token)).rejects.toThrow(/403/);
    const page = await fetch(`${server().origin}/?token=${token}`, { redirect: "manual" });
    expect(page.status).toBe(403);

    // The workspace's own token: its socket stays open and answers; a new one opens.
    expect(owner.closed).toBeUndefined();
    owner.send({ type: "session.create", title: "still here" });
    expect((await owner.next("snapshot")).session.title).toBe("still here");
    const { client: again } = await TestClient.greeted(server().wsUrl, server().browserHeaders);
    fixture.track(again);

    const listed = await cli("list");
    expect(listed.output).toMatch(/^Alice\tissued \S+\trevoked /m);
  }, 60_000);

  it("[S3] a second live token for one name, a bad name and an unknown revoke are clear errors that change nothing", async () => {
    const lines: string[] = [];
    const run = (...args: string[]) =>
      runTokenCommand(
        [...args, "--workspace", server().workspace, "--db", server().dbPath],
        "/",
        (line) => lines.push(line),
      );
    run("issue", "Bob");
    const bob = lines.find((line) => /^[0-9a-f]{64}$/.test(line)) ?? "";
    expect(() => run("issue", "Bob")).toThrow(/Bob already has a token/);
    expect(() => run("issue", "<script>")).toThrow(/not a usable name/);
    expect(() => run("revoke", "Nobody")).toThrow(/nobody named "Nobody"/);
    expect(() => run("rename", "Bob")).toThrow(CliError);
    const { client } = await TestClient.greeted(`${server().wsUrl}?token=${bob}`, origin());
    fixture.track(client);
    expect(client.closed).toBeUndefined();

    // A named token opens the page and its socket only; agents use the workspace's token.
    const mcp = await fetch(`${server().origin}/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${bob}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    expect(mcp.status).toBe(403);
    expect(mcp.headers.get("www-authenticate")).toMatch(/error="insufficient_scope"/);
  });
});

describe("[S3] a notification answered by a person", () => {
  const fixture = useScenarioServer(scenario);
  const { server } = fixture;

  it("[S3][U4] a notification action sent with a person's token records the person", async () => {
    const lines: string[] = [];
    runTokenCommand(
      ["issue", "Carol", "--workspace", server().workspace, "--db", server().dbPath],
      "/",
      (line) => lines.push(line),
    );
    const carol = lines.find((line) => /^[0-9a-f]{64}$/.test(line)) ?? "";
    const { client } = await fixture.greeted();
    client.send({ type: "session.create", title: "colours" });
    const sessionId = (await client.next("snapshot")).session.id;
    client.send({ type: "prompt", sessionId, text: "ask me" });
    const requested = await client.next(
      "event",
      (frame) => frame.sessionId === sessionId && frame.entry.kind === "interaction.requested",
    );
    if (requested.entry.kind !== "interaction.requested") throw new Error("unreachable");
    const action = await fetch(`${server().origin}/push/action`, {
      method: "POST",
      headers: {
        origin: server().origin,
        cookie: `plangate_token_${server().server.port}=${carol}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({
        interactionId: requested.entry.request.interactionId,
        action: "Blue",
        deviceLabel: "Chrome on Android",
      }),
    });
    expect(action.status).toBe(200);
    const resolved = await client.next(
      "event",
      (frame) => frame.sessionId === sessionId && frame.entry.kind === "interaction.resolved",
    );
    expect(resolved.entry).toMatchObject({
      outcome: { by: { label: "Chrome on Android", via: "notification", person: "Carol" } },
    });
  });
});

describe("[S3] the named token table", () => {
  it("[S3] keeps hashes, reissues after a revoke, and lists both states", () => {
    const dir = tempDir();
    const db = openDatabase(`${dir.path}/plangate.db`);
    try {
      const store = new NamedTokenStore(db);
      const first = store.issue("Carol", 1_000);
      expect(store.revoke("Carol", 2_000)).toBe(true);
      expect(store.revoke("Carol", 3_000)).toBe(false);
      const second = store.issue("Carol", 4_000);
      expect(second).not.toBe(first);
      expect([...store.live().values()]).toEqual(["Carol"]);
      expect(store.list()).toEqual([{ name: "Carol", createdAt: 4_000, revokedAt: null }]);
    } finally {
      db.close();
      dir.remove();
    }
  });

  it("[S1][S3] reads --db as the server does: a URL that is neither a file nor postgres:// is refused, creating nothing", () => {
    const dir = tempDir();
    try {
      const run = (db: string) =>
        runTokenCommand(["list", "--workspace", dir.path, "--db", db], dir.path, () => {});
      expect(() => run("http://example.test/plangate")).toThrow(
        /--db takes an SQLite file or a postgres:\/\/ URL/,
      );
      expect(() => run("postgres://%zz@[bad")).toThrow(/not a valid PostgreSQL URL/);
      expect(readdirSync(dir.path)).toEqual([]);
    } finally {
      dir.remove();
    }
  });
});
