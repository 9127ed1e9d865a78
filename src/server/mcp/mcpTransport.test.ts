import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { StoredEntry } from "../../protocol/index.ts";
import { systemClock } from "../clock.ts";
import { openDatabase } from "../store/database.ts";
import { SessionLog } from "../store/sessionLog.ts";
import type { Store } from "../store/store.ts";
import { startTestServer, type TestServer } from "../testing/testServer.ts";
import { messagesOf, RawMcpClient, type SseEvent } from "./rawMcpClient.ts";

const ask = {
  name: "ask_user_question",
  arguments: {
    questions: [
      {
        question: "Which database?",
        header: "Database",
        options: [{ label: "Postgres" }, { label: "SQLite" }],
        multiSelect: false,
      },
    ],
  },
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("MCP transport rules, checked on the wire by a client written from the spec (B2–B5)", () => {
  let test: TestServer;
  let agent: RawMcpClient;

  const start = async (overrides: Parameters<typeof startTestServer>[0] = {}) => {
    test = await startTestServer(overrides);
    agent = new RawMcpClient(`${test.origin}/mcp`, test.server.token);
  };
  const mcpSession = () => test.server.sessions.summaries().find((s) => s.model.startsWith("mcp/"));
  const pendingSoon = async () => {
    for (let i = 0; i < 300; i++) {
      const session = mcpSession();
      const pending = session ? test.server.interactions.pending(session.id) : [];
      if (session && pending.length > 0) return { session, pending };
      await sleep(10);
    }
    throw new Error("no pending interaction appeared");
  };
  const entries = (sessionId: string): StoredEntry[] => {
    const db = openDatabase(test.dbPath);
    try {
      return new SessionLog(db, systemClock).entriesAfter(sessionId, 0);
    } finally {
      db.close();
    }
  };
  const answerSqlite = (interactionId: string) =>
    expect(
      test.server.interactions.answer(interactionId, { "Which database?": { labels: ["SQLite"] } }),
    ).toEqual({ ok: true });

  /** Posts the call and drops the connection right after its priming event (B3). */
  const dropAfterPriming = (call: unknown) => {
    const controller = new AbortController();
    let primed: SseEvent | undefined;
    const dropped = agent
      .post(
        call,
        {},
        {
          signal: controller.signal,
          onEvent: (event) => {
            primed ??= event;
            controller.abort();
          },
        },
      )
      .catch((error: unknown) => error);
    return { dropped, primed: () => primed };
  };

  afterEach(async () => {
    await test.stop();
  });

  it("[B2] 401 names the Bearer scheme (invalid_token for a wrong one); the token is taken only from the Authorization header", async () => {
    await start();
    const init = agent.request("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "raw", version: "1" },
    });
    const missing = await agent.post(init, { authorization: "" });
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toMatch(/^Bearer /);

    const wrong = await agent.post(init, { authorization: "Bearer not-the-token" });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("www-authenticate")).toMatch(/^Bearer .*error="invalid_token"/);

    const inQuery = await fetch(`${test.origin}/mcp?token=${test.server.token}`, {
      method: "POST",
      headers: {
        accept: "application/json, text/event-stream",
        "content-type": "application/json",
      },
      body: JSON.stringify(init),
    });
    expect(inQuery.status).toBe(401);
    expect(inQuery.headers.get("www-authenticate")).toMatch(/^Bearer .*invalid_request/);

    const byCookie = await agent.post(init, {
      authorization: "",
      cookie: test.browserHeaders.cookie ?? "",
    });
    expect(byCookie.status).toBe(401);
    expect(byCookie.headers.get("www-authenticate")).toMatch(/^Bearer /);

    const ok = await agent.post(init);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("mcp-session-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("[B2] an unsupported MCP-Protocol-Version is 400; a supported one is served", async () => {
    await start();
    await agent.initialize();
    const list = agent.request("tools/list");
    expect((await agent.post(list, { "mcp-protocol-version": "1999-01-01" })).status).toBe(400);
    const ok = await agent.post(agent.request("tools/list"));
    expect(ok.status).toBe(200);
    expect(messagesOf(ok)[0]).toMatchObject({ result: { tools: expect.any(Array) } });
  });

  it("[B2] no batches on a 2025-11-25 session, nor before one exists", async () => {
    await start();
    const batchInit = [
      agent.request("initialize", {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "raw", version: "1" },
      }),
    ];
    const refused = await agent.post(batchInit, { "mcp-protocol-version": "" });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ error: { code: -32600 } });
    await agent.initialize();
    const batch = await agent.post([agent.request("tools/list"), agent.request("ping")]);
    expect(batch.status).toBe(400);
    expect(batch.json).toMatchObject({ error: { code: -32600, message: /batch/ } });

    // 2025-03-26 still had batches; an agent on that revision keeps them.
    const older = new RawMcpClient(agent.endpoint, agent.token);
    await older
      .post(
        older.request("initialize", {
          protocolVersion: "2025-03-26",
          capabilities: {},
          clientInfo: { name: "old", version: "1" },
        }),
        { "mcp-protocol-version": "" },
      )
      .then((reply) => {
        older.sessionId = reply.headers.get("mcp-session-id") ?? undefined;
      });
    const old = await older.post([older.request("ping")], { "mcp-protocol-version": "2025-03-26" });
    expect(old.status).toBe(200);
  });

  it("[B2] a second initialize on a session is refused and makes no new session", async () => {
    await start();
    await agent.initialize();
    const first = agent.sessionId;
    const again = await agent.post(
      agent.request("initialize", {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "raw", version: "1" },
      }),
    );
    expect(again.status).toBe(400);
    expect(again.headers.get("mcp-session-id") ?? first).toBe(first);
    const still = await agent.post(agent.request("ping"));
    expect(still.status).toBe(200);
  });

  it("[B2] Accept and Content-Type are checked", async () => {
    await start();
    await agent.initialize();
    const onlyJson = await agent.post(agent.request("ping"), { accept: "application/json" });
    expect(onlyJson.status).toBe(406);
    const noAccept = await agent.post(agent.request("ping"), { accept: "" });
    expect(noAccept.status).toBe(406);
    const text = await agent.post(agent.request("ping"), { "content-type": "text/plain" });
    expect(text.status).toBe(415);
    const malformed = await agent.post("{not json");
    expect(malformed.status).toBe(400);
    expect(malformed.json).toMatchObject({ error: { code: -32700 } });
  });

  it("[B2][R2] the largest call the schemas admit is taken; a body past the limit is a JSON-RPC error", async () => {
    await start();
    await agent.initialize();
    // Four questions with the longest detail, every character escaped as \uXXXX (7.2 MB).
    const detail = "计".repeat(300_000);
    const questions = ["One?", "Two?", "Three?", "Four?"].map((question, i) => ({
      question,
      header: `Q${i}`,
      options: [{ label: "Yes" }, { label: "No" }],
      multiSelect: false,
      detail,
    }));
    const escaped = JSON.stringify(
      agent.request("tools/call", { name: "ask_user_question", arguments: { questions } }),
    ).replace(/[^ -~]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
    expect(escaped.length).toBeGreaterThan(7_000_000);
    const dropped = new AbortController();
    const largest = agent.post(escaped, {}, { signal: dropped.signal }).catch(() => undefined);
    // Taken: its card waits for the user.
    expect((await pendingSoon()).pending).toHaveLength(1);
    dropped.abort();
    await largest;

    const tooLarge = await agent.post(`${escaped}${" ".repeat(1_500_000)}`);
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.json).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 } });
  });

  it("[B2] requests without a session or with an unknown one are refused; DELETE ends a session", async () => {
    await start();
    const list = agent.request("tools/list");
    expect((await agent.post(list)).status).toBe(400);
    expect((await agent.post(list, { "mcp-session-id": "nope" })).status).toBe(404);
    await agent.initialize();
    const ended = await fetch(agent.endpoint, { method: "DELETE", headers: agent.headers() });
    expect(ended.status).toBe(200);
    expect((await agent.post(agent.request("ping"))).status).toBe(404);
  });

  it("[B2] the standalone GET stream opens and carries keep-alives", async () => {
    await start({ mcpTimings: { keepAliveMs: 50 } });
    await agent.initialize();
    const controller = new AbortController();
    const response = await fetch(agent.endpoint, {
      headers: { ...agent.headers({ accept: "text/event-stream" }) },
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const reader = response.body!.getReader();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toContain(": keepalive");
    controller.abort();
  });

  it("[B2][B3] notifications/cancelled gets no response and withdraws the card", async () => {
    await start();
    await agent.initialize();
    const call = agent.request("tools/call", ask);
    const controller = new AbortController();
    const stream = agent.post(call, {}, { signal: controller.signal }).catch(() => undefined);
    const { session, pending } = await pendingSoon();
    const cancelled = await agent.post({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: call.id, reason: "changed my mind" },
    });
    expect(cancelled.status).toBe(202);
    expect(cancelled.json).toBeUndefined();
    for (let i = 0; i < 200 && test.server.interactions.pending(session.id).length > 0; i++) {
      await sleep(10);
    }
    const resolved = entries(session.id).find(
      (stored) =>
        stored.entry.kind === "interaction.resolved" &&
        stored.entry.interactionId === pending[0]!.request.interactionId,
    );
    expect(resolved?.entry).toMatchObject({ outcome: { type: "aborted" } });
    controller.abort();
    await stream;
  });

  it("[B3] a call whose connection drops mid-wait is not cancelled; resumed with Last-Event-ID it gets the answer", async () => {
    await start();
    await agent.initialize();
    const call = agent.request("tools/call", ask);
    const { dropped, primed } = dropAfterPriming(call);
    const { session, pending } = await pendingSoon();
    expect(await dropped).toBeInstanceOf(Error);
    expect(primed()?.id).toMatch(/^\d+$/);
    await sleep(100);
    expect(test.server.interactions.pending(session.id)).toHaveLength(1);
    answerSqlite(pending[0]!.request.interactionId);

    const resumed = await agent.get({ "last-event-id": primed()!.id! });
    const [result] = messagesOf(resumed);
    expect(result).toMatchObject({
      id: call.id,
      result: { isError: false, structuredContent: { status: "answered" } },
    });
    expect(JSON.stringify(result)).toContain("SQLite");
  });

  it("[B3] Last-Event-ID resumes only a stream of the agent's own MCP session: another agent's answer is never replayed to it", async () => {
    await start();
    await agent.initialize();
    const intruder = new RawMcpClient(`${test.origin}/mcp`, test.server.token);
    await intruder.initialize("intruder");
    const { dropped, primed } = dropAfterPriming(agent.request("tools/call", ask));
    const { pending } = await pendingSoon();
    await dropped;
    const lastEventId = primed()!.id!;
    expect(lastEventId).toMatch(/^\d+$/);

    // While the call waits, and after it was answered with nobody attached (the SDK's path).
    const whileWaiting = await intruder.get(
      { "last-event-id": lastEventId },
      { readTimeoutMs: 500 },
    );
    expect(whileWaiting.status).toBe(400);
    answerSqlite(pending[0]!.request.interactionId);
    await sleep(50);
    const afterAnswer = await intruder.get(
      { "last-event-id": lastEventId },
      { readTimeoutMs: 500 },
    );
    expect(afterAnswer.status).toBe(400);
    expect(JSON.stringify(afterAnswer.json)).not.toContain("SQLite");

    // The agent that owns the stream still gets its answer.
    const resumed = await agent.get({ "last-event-id": lastEventId });
    expect(JSON.stringify(messagesOf(resumed))).toContain("SQLite");
  });

  it("[B3] an identical call from the same agent re-attaches to the pending question instead of opening a second card", async () => {
    await start();
    await agent.initialize();
    const controller = new AbortController();
    const first = agent
      .post(agent.request("tools/call", ask), {}, { signal: controller.signal })
      .catch(() => undefined);
    const { session, pending } = await pendingSoon();
    controller.abort();
    await first;

    // The agent restarts its process: a new MCP session, the same call.
    const again = new RawMcpClient(agent.endpoint, agent.token);
    await again.initialize();
    const retry = again.post(again.request("tools/call", ask));
    await sleep(200);
    expect(test.server.interactions.pending(session.id)).toHaveLength(1);
    answerSqlite(pending[0]!.request.interactionId);
    const [result] = messagesOf(await retry);
    expect(JSON.stringify(result)).toContain("SQLite");
    const cards = entries(session.id).filter((s) => s.entry.kind === "interaction.requested");
    expect(cards).toHaveLength(1);
  });

  it("[B3] the agent's explicit cancel withdraws the card even while an earlier, dropped request still waits on it", async () => {
    await start();
    await agent.initialize();
    const controller = new AbortController();
    const first = agent
      .post(agent.request("tools/call", ask), {}, { signal: controller.signal })
      .catch(() => undefined);
    const { session, pending } = await pendingSoon();
    controller.abort();
    await first;

    const again = new RawMcpClient(agent.endpoint, agent.token);
    await again.initialize();
    const call = again.request("tools/call", ask);
    const stopped = new AbortController();
    const retry = again.post(call, {}, { signal: stopped.signal }).catch(() => undefined);
    await sleep(200);
    await again.post({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: call.id },
    });
    for (let i = 0; i < 200 && test.server.interactions.pending(session.id).length > 0; i++) {
      await sleep(10);
    }
    const resolved = entries(session.id).find(
      (stored) =>
        stored.entry.kind === "interaction.resolved" &&
        stored.entry.interactionId === pending[0]!.request.interactionId,
    );
    expect(resolved?.entry).toMatchObject({ outcome: { type: "aborted" } });
    stopped.abort();
    await retry;
  });

  it("[B4] a long wait completes for a client whose read timeout is shorter than the wait, thanks to keep-alive", async () => {
    // Scaled down: keep-alive 15 s → 100 ms, read timeout 60 s → 1 s, a 7-minute wait → 2.5 s.
    // The read timeout stays 10 keep-alives long so a loaded machine's stalls do not end it.
    await start({ mcpTimings: { keepAliveMs: 100 } });
    await agent.initialize();
    const call = agent.post(agent.request("tools/call", ask), {}, { readTimeoutMs: 1_000 });
    const { pending } = await pendingSoon();
    await sleep(2_500);
    answerSqlite(pending[0]!.request.interactionId);
    const [result] = messagesOf(await call);
    expect(JSON.stringify(result)).toContain("SQLite");
  });

  it("[B5] idle connections expire, while one with a waiting call outlives the idle limit", async () => {
    // Long enough that the agent's next request after its answer comes within it on a busy machine.
    await start({ mcpTimings: { idleMs: 1_000 } });
    const idle = new RawMcpClient(agent.endpoint, agent.token);
    await idle.initialize("idle-agent");
    await agent.initialize();
    const call = agent.post(agent.request("tools/call", ask));
    const { pending } = await pendingSoon();
    await sleep(3_000);
    expect((await idle.post(idle.request("ping"))).status).toBe(404);
    answerSqlite(pending[0]!.request.interactionId);
    expect(JSON.stringify(messagesOf(await call)[0])).toContain("SQLite");
    expect((await agent.post(agent.request("ping"))).status).toBe(200);
  });

  it("[B5][R3] idle connections still expire while the store refuses writes, and the server stays up", async () => {
    let store: Store | undefined;
    await start({
      mcpTimings: { idleMs: 150 },
      checkStore: (opened) => {
        store = opened;
      },
      storageHealth: { log: () => {} },
    });
    const idle = new RawMcpClient(agent.endpoint, agent.token);
    await idle.initialize("idle-agent");
    // Every write refused, the sweep's pruning of old stream events too.
    store!.db.exec("PRAGMA query_only = ON");
    try {
      await sleep(1_500);
      expect((await idle.post(idle.request("ping"))).status).toBe(404);
      expect(store!.health.current).toEqual({ state: "failing", problem: "readOnly" });
    } finally {
      store!.db.exec("PRAGMA query_only = OFF");
    }
    await agent.initialize();
    expect((await agent.post(agent.request("ping"))).status).toBe(200);
  });

  it("[B5][R3] shutting down while the store refuses writes still closes cleanly, and the log says which events were not saved", async () => {
    let store: Store | undefined;
    await start({
      checkStore: (opened) => {
        store = opened;
      },
      storageHealth: { log: () => {} },
    });
    await agent.initialize();
    const call = agent.post(agent.request("tools/call", ask)).catch((error: unknown) => error);
    await pendingSoon();
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    // Only this connection refuses writes; it closes with the server.
    store!.db.exec("PRAGMA query_only = ON");
    try {
      // Closing tells the waiting call to retry: its event is queued and cannot be written.
      await expect(test.server.close()).resolves.toBeUndefined();
      expect(logged.mock.calls.map((args) => args.join(" "))).toContainEqual(
        expect.stringMatching(
          /^plangate: [1-9]\d* MCP stream events? could not be saved before shutdown: the store refuses writes$/,
        ),
      );
    } finally {
      logged.mockRestore();
    }
    await call;
  });

  const askAbout = (topic: string) => ({
    name: "ask_user_question",
    arguments: {
      questions: [{ ...ask.arguments.questions[0]!, question: `Which ${topic}?` }],
    },
  });
  const textOf = (message: Record<string, unknown> | undefined) =>
    ((message?.result as { content?: { text: string }[] })?.content ?? [])
      .map((part) => part.text)
      .join("");

  it("[R12] one MCP session keeps at most its cap of calls waiting: the next gets a clear error result at once and queues nothing", async () => {
    await start({ mcpMaxWaitingPerSession: 3 });
    await agent.initialize();
    const controller = new AbortController();
    const waiting = ["database", "cache", "queue"].map((topic) =>
      agent
        .post(agent.request("tools/call", askAbout(topic)), {}, { signal: controller.signal })
        .catch(() => undefined),
    );
    const { session } = await pendingSoon();
    await vi.waitFor(() => expect(test.server.interactions.pending(session.id)).toHaveLength(3));

    const over = await agent.post(agent.request("tools/call", askAbout("broker")));
    const [refused] = messagesOf(over);
    expect(refused).toMatchObject({ result: { isError: true } });
    expect(textOf(refused)).toMatch(/already has 3 calls waiting/);
    await sleep(100);
    expect(test.server.interactions.pending(session.id)).toHaveLength(3);
    const cards = entries(session.id).filter((s) => s.entry.kind === "interaction.requested");
    expect(cards).toHaveLength(3);

    // Another agent's session has its own allowance.
    const other = new RawMcpClient(agent.endpoint, agent.token);
    await other.initialize("other-agent");
    const theirs = await other.post(
      other.request("tools/call", { name: "write_todos", arguments: { todos: [] } }),
    );
    expect(messagesOf(theirs)[0]).toMatchObject({ result: { isError: false } });

    // Answered, a call makes room for the next.
    const first = test.server.interactions.pending(session.id)[0]!.request.interactionId;
    test.server.interactions.cancel(first);
    await vi.waitFor(() => expect(test.server.interactions.pending(session.id)).toHaveLength(2));
    const next = agent
      .post(agent.request("tools/call", askAbout("broker")), {}, { signal: controller.signal })
      .catch(() => undefined);
    await vi.waitFor(() => expect(test.server.interactions.pending(session.id)).toHaveLength(3));
    controller.abort();
    await Promise.all([...waiting, next]);
  });

  it("[R12] the cap holds on the SDK's path too (an agent that offers roots)", async () => {
    await start({ mcpMaxWaitingPerSession: 2 });
    const rooted = new Client(
      { name: "rooted", version: "1.0.0" },
      { capabilities: { roots: {} } },
    );
    const uri = pathToFileURL("/work/project-a").href;
    rooted.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri }] }));
    await rooted.connect(
      new StreamableHTTPClientTransport(new URL(agent.endpoint), {
        requestInit: { headers: { authorization: `Bearer ${agent.token}` } },
      }),
    );
    const controller = new AbortController();
    const waiting = ["database", "cache"].map((topic) =>
      rooted
        .callTool(askAbout(topic), undefined, { signal: controller.signal })
        .catch(() => undefined),
    );
    const { session } = await pendingSoon();
    await vi.waitFor(() => expect(test.server.interactions.pending(session.id)).toHaveLength(2));
    const over = (await rooted.callTool(askAbout("broker"))) as {
      isError?: boolean;
      content: { text: string }[];
    };
    expect(over.isError).toBe(true);
    expect(over.content[0]?.text).toMatch(/already has 2 calls waiting/);
    expect(test.server.interactions.pending(session.id)).toHaveLength(2);
    controller.abort();
    await Promise.all(waiting);
    await rooted.close();
  });

  it("[R12] a tool call nested 100,000 levels deep gets a clear error result, and the server goes on serving", async () => {
    await start();
    await agent.initialize();
    const depth = 100_000;
    const question = JSON.stringify(ask.arguments.questions[0]).slice(0, -1);
    const body = `{"jsonrpc":"2.0","id":77,"method":"tools/call","params":{"name":"ask_user_question","arguments":{"questions":[${question},"detail":${"[".repeat(depth)}${"]".repeat(depth)}}]}}}`;
    const reply = await agent.post(body);
    expect(reply.status).toBe(200);
    const [result] = messagesOf(reply);
    expect(result).toMatchObject({ id: 77, result: { isError: true } });
    expect(textOf(result)).toMatch(/ask_user_question/);
    expect(test.server.sessions.summaries().filter((s) => s.model.startsWith("mcp/"))).toHaveLength(
      0,
    );
    expect((await agent.post(agent.request("ping"))).status).toBe(200);
  });
});
