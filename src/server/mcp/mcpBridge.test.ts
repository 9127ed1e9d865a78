import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { StoredEntry } from "../../protocol/index.ts";
import { systemClock } from "../clock.ts";
import { openDatabase } from "../store/database.ts";
import { SessionLog } from "../store/sessionLog.ts";
import { startTestServer, type TestServer } from "../testing/testServer.ts";

interface ToolReply {
  content: { type: string; text: string }[];
  isError?: boolean;
}

const databaseAsk = {
  questions: [
    {
      question: "Which database?",
      header: "Database",
      options: [{ label: "Postgres" }, { label: "SQLite" }],
      multiSelect: false,
    },
  ],
};

const textOf = (reply: unknown) => (reply as ToolReply).content.map((part) => part.text).join("");

describe("MCP bridge (X1), spoken to by the official MCP client", () => {
  let test: TestServer;
  let client: Client;

  const connect = async (name = "test-agent") => {
    const agent = new Client({ name, version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(`${test.origin}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${test.server.token}` } },
    });
    await agent.connect(transport);
    return agent;
  };
  const mcpSession = () => {
    const session = test.server.sessions.summaries().find((s) => s.model.startsWith("mcp/"));
    if (!session) throw new Error("no MCP session yet");
    return session;
  };
  const entries = (sessionId: string): StoredEntry[] => {
    const db = openDatabase(test.dbPath);
    try {
      return new SessionLog(db, systemClock).entriesAfter(sessionId, 0);
    } finally {
      db.close();
    }
  };
  const pendingSoon = async () => {
    for (let i = 0; i < 200; i++) {
      const session = test.server.sessions.summaries().find((s) => s.model.startsWith("mcp/"));
      const pending = session ? test.server.interactions.pending(session.id) : [];
      if (session && pending.length > 0) return { session, pending };
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error("no pending interaction appeared");
  };

  beforeEach(async () => {
    test = await startTestServer({ mcpProgressEveryMs: 100 });
    client = await connect();
  });
  afterEach(async () => {
    await client.close();
    await test.stop();
  });

  it("[X1] offers ask_user_question, review_plan and write_todos with JSON schemas", async () => {
    expect(client.getServerVersion()?.name).toBe("plangate");
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      "ask_user_question",
      "review_plan",
      "write_todos",
    ]);
    for (const tool of tools) expect(tool.inputSchema.type).toBe("object");
  });

  it("[X1][A1] a question lands in the agent's own session with its countdown, and the answer comes back", async () => {
    const call = client.callTool({
      name: "ask_user_question",
      arguments: databaseAsk,
    });
    const { session, pending } = await pendingSoon();
    expect(session.model).toBe("mcp/test-agent");
    expect(session.title).toBe("test-agent");
    expect(pending[0]?.countdown.phase).toBe("counting");
    const id = pending[0]!.request.interactionId;
    expect(
      test.server.interactions.answer(id, { "Which database?": { labels: ["SQLite"] } }),
    ).toEqual({ ok: true });
    const reply = await call;
    expect((reply as ToolReply).isError).toBe(false);
    expect(textOf(reply)).toContain("SQLite");
    const kinds = entries(session.id).map((stored) => stored.entry.kind);
    expect(kinds).toEqual(
      expect.arrayContaining([
        "tool.call",
        "interaction.requested",
        "interaction.resolved",
        "tool.result",
      ]),
    );
    expect(kinds).not.toContain("turn.started");
  });

  it("[X1] a call kept waiting streams progress, so an agent with a short timeout still gets the answer", async () => {
    const progress: number[] = [];
    const call = client.callTool(
      {
        name: "ask_user_question",
        arguments: databaseAsk,
      },
      undefined,
      { timeout: 500, resetTimeoutOnProgress: true, onprogress: (p) => progress.push(p.progress) },
    );
    const { pending } = await pendingSoon();
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    test.server.interactions.answer(pending[0]!.request.interactionId, {
      "Which database?": { labels: ["Postgres"] },
    });
    expect(textOf(await call)).toContain("Postgres");
    expect(progress.length).toBeGreaterThanOrEqual(5);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it("[X1][X4] review_plan waits for the verdict; a second plan is revision 2 and carries the feedback", async () => {
    const first = client.callTool({ name: "review_plan", arguments: { plan: "# Plan\n\n1. One" } });
    let { pending } = await pendingSoon();
    expect(pending[0]?.countdown.phase).toBe("ineligible");
    const review = pending[0]!.request;
    if (review.kind !== "question") throw new Error("a plan review is a question");
    test.server.interactions.answer(review.interactionId, {
      [review.questions[0]!.question]: { labels: ["Refuse"], other: "Add a test step" },
    });
    expect(textOf(await first)).toContain("Add a test step");

    const second = client.callTool({
      name: "review_plan",
      arguments: { plan: "# Plan\n\n1. One\n2. Test" },
    });
    ({ pending } = await pendingSoon());
    const revised = pending[0]!.request;
    if (revised.kind !== "question") throw new Error("a plan review is a question");
    expect(revised.planRevision).toEqual({
      number: 2,
      previous: { plan: "# Plan\n\n1. One", feedback: ["Add a test step"] },
    });
    test.server.interactions.answer(revised.interactionId, {
      [revised.questions[0]!.question]: { labels: ["Approve"] },
    });
    expect(textOf(await second)).toMatch(/approved the plan/);
  });

  it("[X1][T2] write_todos keeps the agent's list in its session", async () => {
    const reply = await client.callTool({
      name: "write_todos",
      arguments: {
        todos: [{ content: "Write the migration", status: "in_progress", priority: "high" }],
      },
    });
    expect((reply as ToolReply).isError).toBe(false);
    const todos = entries(mcpSession().id).filter(
      (stored) => stored.entry.kind === "todos.updated",
    );
    expect(todos).toHaveLength(1);
  });

  it("[X1] what the user types in the agent's session reaches the agent with its next result, starting no turn", async () => {
    await client.callTool({ name: "write_todos", arguments: { todos: [] } });
    const session = mcpSession();
    test.server.sessions.prompt(session.id, "Use the staging database");
    expect(test.server.sessions.isRunning(session.id)).toBe(false);
    const reply = await client.callTool({ name: "write_todos", arguments: { todos: [] } });
    expect(textOf(reply)).toContain("> Use the staging database");
    const again = await client.callTool({ name: "write_todos", arguments: { todos: [] } });
    expect(textOf(again)).not.toContain("staging");
  });

  it("[X1] an agent that ends its MCP session and comes back goes on in its plangate session, hearing what the user wrote meanwhile", async () => {
    await client.callTool({ name: "write_todos", arguments: { todos: [] } });
    const session = mcpSession();
    await (client.transport as StreamableHTTPClientTransport).terminateSession();
    await client.close();
    test.server.sessions.prompt(session.id, "While you were away: use the staging database");
    client = await connect();
    const other = await connect("another-agent");
    const reply = await client.callTool({ name: "write_todos", arguments: { todos: [] } });
    await other.callTool({ name: "write_todos", arguments: { todos: [] } });
    await other.close();
    expect(textOf(reply)).toContain("> While you were away: use the staging database");
    const mcpSessions = test.server.sessions.summaries().filter((s) => s.model.startsWith("mcp/"));
    expect(mcpSessions.map((s) => s.model).sort()).toEqual(["mcp/another-agent", "mcp/test-agent"]);
  });

  it("[X1] two connections of the same agent that have not ended get sessions of their own", async () => {
    await client.callTool({ name: "write_todos", arguments: { todos: [] } });
    const twin = await connect();
    await twin.callTool({ name: "write_todos", arguments: { todos: [] } });
    await twin.close();
    const mine = test.server.sessions.summaries().filter((s) => s.model === "mcp/test-agent");
    expect(mine).toHaveLength(2);
  });

  it("[X1][R3] bad input is a clear error result; an unknown tool is a protocol error", async () => {
    const reply = await client.callTool({
      name: "ask_user_question",
      arguments: { questions: [] },
    });
    expect((reply as ToolReply).isError).toBe(true);
    expect(textOf(reply)).toMatch(/input for ask_user_question is invalid/);
    await expect(client.callTool({ name: "rm_rf", arguments: {} })).rejects.toThrow(
      /unknown tool rm_rf/,
    );
  });

  it("[X1][A7] a restart closes the agent's waiting call instead of leaving a card nobody hears", async () => {
    const call = client.callTool({ name: "review_plan", arguments: { plan: "# Plan" } });
    call.catch(() => {});
    const { session } = await pendingSoon();
    await test.restart();
    expect(test.server.interactions.pending(session.id)).toEqual([]);
    const results = entries(session.id).filter((stored) => stored.entry.kind === "tool.result");
    expect(results.at(-1)?.entry).toMatchObject({ name: "review_plan", isError: true });
    expect(entries(session.id).at(-1)?.entry.kind).not.toBe("turn.started");
  });

  it("[X1][Q8] a call the agent withdraws aborts its question", async () => {
    const controller = new AbortController();
    const call = client.callTool(
      {
        name: "ask_user_question",
        arguments: {
          questions: [
            {
              question: "Go on?",
              header: "Go",
              options: [{ label: "Yes" }, { label: "No" }],
              multiSelect: false,
            },
          ],
        },
      },
      undefined,
      { signal: controller.signal },
    );
    const { session, pending } = await pendingSoon();
    const id = pending[0]!.request.interactionId;
    controller.abort("changed my mind");
    await expect(call).rejects.toThrow();
    for (let i = 0; i < 200 && test.server.interactions.pending(session.id).length > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const resolved = entries(session.id).find(
      (stored) => stored.entry.kind === "interaction.resolved" && stored.entry.interactionId === id,
    );
    expect(resolved?.entry).toMatchObject({ outcome: { type: "aborted" } });
  });
});

describe("MCP endpoint access and framing (X1, R1)", () => {
  let test: TestServer;
  beforeEach(async () => {
    test = await startTestServer();
  });
  afterEach(() => test.stop());

  const post = (body: string, headers: Record<string, string> = {}) =>
    fetch(`${test.origin}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${test.server.token}`,
        ...headers,
      },
      body,
    });

  it("[X1][R1] needs the token and this server's Host", async () => {
    const init = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} });
    expect((await post(init, { authorization: "" })).status).toBe(401);
    expect((await post(init, { authorization: "Bearer wrong" })).status).toBe(403);
    expect((await post(init, { origin: "http://evil.example" })).status).toBe(403);
    const ok = await post(init);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("mcp-session-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("[X1][R3] malformed JSON, a missing session and an unknown method get JSON-RPC errors", async () => {
    const bad = await post("{not json");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: -32700 } });

    const list = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    expect((await post(list)).status).toBe(400);
    expect((await post(list, { "mcp-session-id": "nope" })).status).toBe(404);

    const init = await post(
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }),
    );
    const session = init.headers.get("mcp-session-id") ?? "";
    const unknown = await post(
      JSON.stringify({ jsonrpc: "2.0", id: 3, method: "resources/list" }),
      {
        "mcp-session-id": session,
      },
    );
    expect(await unknown.json()).toMatchObject({ id: 3, error: { code: -32601 } });
    const ended = await fetch(`${test.origin}/mcp`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${test.server.token}`, "mcp-session-id": session },
    });
    expect(ended.status).toBe(200);
    expect((await post(list, { "mcp-session-id": session })).status).toBe(404);
  });
});
