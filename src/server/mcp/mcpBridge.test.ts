import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { type StoredEntry, WIRE_INPUT_CHARS } from "../../protocol/index.ts";
import { systemClock } from "../clock.ts";
import { openDatabase } from "../store/database.ts";
import { SessionLog } from "../store/sessionLog.ts";
import { mcpQuestionSoon, startTestServer, type TestServer } from "../testing/testServer.ts";
import { TestClient } from "../testing/wsClient.ts";
import { askUserQuestionTool } from "../tools/askUserQuestion.ts";
import { exitPlanModeTool } from "../tools/exitPlanMode.ts";
import { ToolRegistry } from "../tools/registry.ts";
import { clientNameOf } from "./mcpBridge.ts";

interface ToolReply {
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** Lets the first tools/call stream through its priming event, then drops the connection. */
function droppingFetch(): { fetch: typeof fetch; dropped: Promise<void> } {
  let drop: (() => void) | undefined;
  const dropped = new Promise<void>((resolve) => {
    drop = resolve;
  });
  let armed = true;
  const wrapped: typeof fetch = async (input, init) => {
    const body = typeof init?.body === "string" ? init.body : "";
    if (!armed || init?.method !== "POST" || !body.includes('"tools/call"')) {
      return fetch(input, init);
    }
    armed = false;
    const connection = new AbortController();
    const response = await fetch(input, { ...init, signal: connection.signal });
    const reader = response.body!.getReader();
    let passed = false;
    // The priming event gets through (so the client can resume); the next read finds the drop.
    const cut = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (!passed) {
          passed = true;
          const first = await reader.read();
          if (!first.done) controller.enqueue(first.value);
          return;
        }
        connection.abort();
        controller.error(new Error("the network dropped the connection"));
        drop?.();
      },
    });
    return new Response(cut, { status: response.status, headers: response.headers });
  };
  return { fetch: wrapped, dropped };
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

  const connect = async (
    name = "test-agent",
    options: { fetch?: typeof fetch; root?: string } = {},
  ) => {
    const agent = new Client(
      { name, version: "1.0.0" },
      options.root === undefined ? {} : { capabilities: { roots: {} } },
    );
    if (options.root !== undefined) {
      const uri = pathToFileURL(options.root).href;
      agent.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri }] }));
    }
    const transport = new StreamableHTTPClientTransport(new URL(`${test.origin}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${test.server.token}` } },
      reconnectionOptions: {
        initialReconnectionDelay: 50,
        maxReconnectionDelay: 200,
        reconnectionDelayGrowFactor: 1.5,
        maxRetries: 10,
      },
      ...(options.fetch ? { fetch: options.fetch } : {}),
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
  const pendingSoon = () => mcpQuestionSoon(test);

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

  it("[X1][Q1] the MCP input schemas are the model-facing ones, from the protocol's one contract", async () => {
    const { tools } = await client.listTools();
    const offered = new ToolRegistry([askUserQuestionTool, exitPlanModeTool] as never[]).specs();
    const modelAsk = offered.find((spec) => spec.name === "AskUserQuestion")!.inputSchema;
    const modelPlan = offered.find((spec) => spec.name === "ExitPlanMode")!.inputSchema as {
      properties: Record<string, unknown>;
    };
    const mcpAsk = tools.find((tool) => tool.name === "ask_user_question")!.inputSchema;
    const mcpPlan = tools.find((tool) => tool.name === "review_plan")!.inputSchema;
    expect(mcpAsk.properties).toEqual((modelAsk as { properties: unknown }).properties);
    expect(mcpPlan.properties?.plan).toEqual(modelPlan.properties.plan);
    expect(Object.keys(mcpPlan.properties ?? {}).sort()).toEqual(["answer", "plan"]);
    expect(JSON.stringify(mcpAsk)).toContain("A very short topic label shown as a chip.");
    expect(JSON.stringify(mcpAsk)).not.toContain("intent");
    expect(JSON.stringify(mcpPlan)).toContain("The complete plan, as markdown.");
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
      contentHash: expect.any(String),
      previous: { plan: "# Plan\n\n1. One", feedback: ["Add a test step"] },
    });
    test.server.interactions.answer(revised.interactionId, {
      [revised.questions[0]!.question]: { labels: ["Approve"] },
    });
    expect(textOf(await second)).toMatch(/approved the plan/);
  });

  it("[X1][W1] a page is sent a long plan's review_plan call cut to its start, as the plan comes whole with its question; the log keeps the whole call", async () => {
    const plan = `# Plan\n\n${"1. a step that the plan carries out\n".repeat(2_000)}`;
    const call = client.callTool({ name: "review_plan", arguments: { plan } });
    const { session, pending } = await pendingSoon();
    const { client: page } = await TestClient.greeted(test.wsUrl, test.browserHeaders);
    page.send({ type: "session.open", sessionId: session.id });
    const snapshot = await page.next("snapshot");
    const sentCall = snapshot.entries.find((stored) => stored.entry.kind === "tool.call");
    if (sentCall?.entry.kind !== "tool.call") throw new Error("no tool call in the snapshot");
    expect(sentCall.entry.input).toEqual({
      plan: { clipped: plan.slice(0, WIRE_INPUT_CHARS), moreChars: plan.length - WIRE_INPUT_CHARS },
    });
    expect(JSON.stringify(snapshot).length).toBeLessThan(plan.length * 1.5);
    const loggedCall = entries(session.id).find((stored) => stored.entry.kind === "tool.call");
    expect(loggedCall?.entry).toMatchObject({ kind: "tool.call", input: { plan } });
    const review = pending[0]!.request;
    if (review.kind !== "question") throw new Error("a plan review is a question");
    expect(review.questions[0]?.detail).toBe(plan);

    // Live, the same: the next plan's call reaches the page cut, its question whole.
    test.server.interactions.answer(review.interactionId, {
      [review.questions[0]!.question]: { labels: ["Refuse"], other: "shorter" },
    });
    await call;
    // Left waiting: the test's teardown ends it.
    client
      .callTool({ name: "review_plan", arguments: { plan: `${plan}2. more\n` } })
      .catch(() => {});
    const live = await page.next("event", (frame) => frame.entry.kind === "tool.call");
    if (live.entry.kind !== "tool.call") throw new Error("unreachable");
    expect(live.entry.input).toMatchObject({
      plan: { moreChars: plan.length + 8 - WIRE_INPUT_CHARS },
    });
    const asked = await page.next("event", (frame) => frame.entry.kind === "interaction.requested");
    if (asked.entry.kind !== "interaction.requested" || asked.entry.request.kind !== "question") {
      throw new Error("unreachable");
    }
    expect(asked.entry.request.questions[0]?.detail).toBe(`${plan}2. more\n`);
    page.socket.close();
  });

  it("[V10] review_plan returns the approve option, the note and the edited plan as structured content and as text", async () => {
    const call = client.callTool({ name: "review_plan", arguments: { plan: "# Plan\n\n1. One" } });
    const { pending } = await pendingSoon();
    const review = pending[0]!.request;
    if (review.kind !== "question") throw new Error("a plan review is a question");
    expect(
      test.server.interactions.answer(review.interactionId, {
        [review.questions[0]!.question]: {
          labels: ["Approve"],
          other: "Keep it small",
          review: {
            option: "edit",
            planHash: review.planRevision?.contentHash,
            editedPlan: "# Plan\n\n1. One, smaller",
          },
        },
      }),
    ).toEqual({ ok: true });
    const reply = (await call) as ToolReply;
    expect(reply.structuredContent).toEqual({
      verdict: "approve",
      option: "edit",
      note: "Keep it small",
      editedPlan: "# Plan\n\n1. One, smaller",
    });
    expect(textOf(reply)).toContain("1. One, smaller");
    expect(textOf(reply)).toMatch(/edits accepted automatically/);
    expect(textOf(reply)).toContain("Keep it small");
  });

  it("[V7][V10] a question about the plan comes back as no verdict; the same plan called again is the next revision, unchanged", async () => {
    const plan = "# Plan\n\n1. One";
    const call = client.callTool({ name: "review_plan", arguments: { plan } });
    let { pending } = await pendingSoon();
    const review = pending[0]!.request;
    if (review.kind !== "question") throw new Error("a plan review is a question");
    expect(
      test.server.interactions.answer(review.interactionId, {
        [review.questions[0]!.question]: {
          labels: [],
          other: "Why one step?",
          review: { ask: true },
        },
      }),
    ).toEqual({ ok: true });
    const reply = (await call) as ToolReply;
    expect(reply.structuredContent).toEqual({ verdict: "question", question: "Why one step?" });
    expect(textOf(reply)).toMatch(
      /neither approved nor refused.*review_plan again with your answer/s,
    );
    expect(textOf(reply)).toContain("<user-question>\nWhy one step?\n</user-question>");

    const ANSWER = "One step is all the change needs.";
    const again = client.callTool({ name: "review_plan", arguments: { plan, answer: ANSWER } });
    ({ pending } = await pendingSoon());
    const second = pending[0]!.request;
    if (second.kind !== "question") throw new Error("a plan review is a question");
    // The answer is in the transcript, before the card it explains.
    const said = entries(second.sessionId).map((stored) => stored.entry);
    const answerAt = said.findIndex((e) => e.kind === "assistant.message" && e.text === ANSWER);
    expect(answerAt).toBeGreaterThan(-1);
    expect(
      said.findIndex(
        (e) =>
          e.kind === "interaction.requested" && e.request.interactionId === second.interactionId,
      ),
    ).toBeGreaterThan(answerAt);
    // The question is no feedback on revision 1; the card compares the same text.
    expect(second.planRevision).toMatchObject({ number: 2, previous: { plan, feedback: [] } });
    test.server.interactions.cancel(second.interactionId);
    await again;
  });

  it("[V8] an approval of a revision while the agent's newer one waits behind it is PLAN_CHANGED and changes nothing", async () => {
    const first = client.callTool({ name: "review_plan", arguments: { plan: "# Plan A" } });
    const { session } = await pendingSoon();
    const pending = () => test.server.interactions.pending(session.id);
    const second = client.callTool({ name: "review_plan", arguments: { plan: "# Plan B" } });
    await vi.waitFor(() => expect(pending()).toHaveLength(2));
    const [old, newer] = pending().map((p) => p.request);
    if (old?.kind !== "question" || newer?.kind !== "question") throw new Error("two reviews");
    const approve = (request: typeof old) =>
      test.server.interactions.answer(request.interactionId, {
        [request.questions[0]!.question]: {
          labels: ["Approve"],
          review: { planHash: request.planRevision?.contentHash },
        },
      });
    expect(approve(old)).toMatchObject({ ok: false, code: "PLAN_CHANGED" });
    expect(pending()).toHaveLength(2);
    test.server.interactions.answer(old.interactionId, {
      [old.questions[0]!.question]: { labels: ["Refuse"] },
    });
    expect(((await first) as ToolReply).structuredContent).toEqual({ verdict: "refuse" });
    expect(approve(newer)).toEqual({ ok: true });
    expect(((await second) as ToolReply).structuredContent).toMatchObject({ verdict: "approve" });
  });

  it("[V10][V2] review_plan returns the comments with their anchors, in plan order, as structured content and as text", async () => {
    const plan = "# Plan\n\n## Steps\n\n1. One\n2. Two";
    const call = client.callTool({ name: "review_plan", arguments: { plan } });
    const { pending } = await pendingSoon();
    const review = pending[0]!.request;
    if (review.kind !== "question") throw new Error("a plan review is a question");
    const comment = (id: string, line: number, quote: string, text: string) => ({
      id,
      anchor: {
        headingPath: ["Plan", "Steps"],
        blockIndex: line - 5,
        blockText: quote,
        quote,
        lines: { start: line, end: line },
      },
      text,
    });
    const two = comment("b", 6, "Two", "Split this step");
    const one = comment("a", 5, "One", "Name the file");
    expect(
      test.server.interactions.answer(review.interactionId, {
        [review.questions[0]!.question]: {
          labels: ["Refuse"],
          other: "Otherwise fine",
          review: { comments: [two, one] },
        },
      }),
    ).toEqual({ ok: true });
    const reply = (await call) as ToolReply;
    const structured = reply.structuredContent as { verdict: string; comments: unknown[] };
    expect(structured.verdict).toBe("feedback");
    expect(structured.comments).toEqual([one, two]);
    const text = textOf(reply);
    expect(text).toContain(
      '<comment number="1" lines="5" section="Plan > Steps">\n<quoted>\nOne\n</quoted>\nName the file\n</comment>',
    );
    expect(text.indexOf("Name the file")).toBeLessThan(text.indexOf("Split this step"));
    expect(text).toContain("Otherwise fine");
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
  for (const path of ["fast path", "SDK path (roots)"] as const) {
    it(`[B3] a cancel ends only its own request: the card stays while another session of the agent awaits the same call, and goes with the last cancel (${path})`, async () => {
      const root = path === "fast path" ? undefined : test.workspace;
      const twins = await Promise.all([
        connect("twin-agent", root === undefined ? {} : { root }),
        connect("twin-agent", root === undefined ? {} : { root }),
      ]);
      const pendingCount = (sessionId: string) =>
        test.server.interactions.pending(sessionId).length;
      try {
        const controllers = twins.map(() => new AbortController());
        const calls: Promise<unknown>[] = [];
        for (const [i, twin] of twins.entries()) {
          calls.push(
            twin.callTool({ name: "ask_user_question", arguments: databaseAsk }, undefined, {
              signal: controllers[i]!.signal,
            }),
          );
          if (i === 0) await pendingSoon();
        }
        const { session } = await pendingSoon();
        await new Promise((resolve) => setTimeout(resolve, 100));
        // Joined (B3): one card, awaited by both requests.
        expect(pendingCount(session.id)).toBe(1);
        controllers[0]!.abort("retrying");
        await expect(calls[0]).rejects.toThrow();
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(pendingCount(session.id)).toBe(1);
        controllers[1]!.abort("gave up");
        await expect(calls[1]).rejects.toThrow();
        for (let i = 0; i < 200 && pendingCount(session.id) > 0; i++) {
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        expect(pendingCount(session.id)).toBe(0);
      } finally {
        await Promise.all(twins.map((twin) => twin.close()));
      }
    });
  }

  it("[B1] tools declare input and output schemas; results carry structuredContent with the text", async () => {
    const { tools } = await client.listTools();
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type).toBe("object");
    }
    const ask = tools.find((tool) => tool.name === "ask_user_question");
    expect(ask?.description).not.toMatch(/PlanMode/);
    expect(ask?.description).toContain("review_plan");
    const call = client.callTool({ name: "ask_user_question", arguments: databaseAsk });
    const { pending } = await pendingSoon();
    test.server.interactions.answer(pending[0]!.request.interactionId, {
      "Which database?": { labels: ["SQLite"] },
    });
    const reply = (await call) as ToolReply;
    expect(reply.structuredContent).toEqual({
      status: "answered",
      answers: { "Which database?": { labels: ["SQLite"] } },
      continuedAutomatically: false,
    });
    expect(textOf(reply)).toContain("SQLite");
    const todos = (await client.callTool({
      name: "write_todos",
      arguments: { todos: [{ content: "Ship it", status: "pending", priority: "low" }] },
    })) as ToolReply;
    expect(todos.structuredContent).toEqual({
      todos: [{ content: "Ship it", status: "pending", priority: "low" }],
    });
  });

  it("[B1][Q8] questions withdrawn by the user's Stop still return structured content, which the SDK client checks", async () => {
    await client.listTools();
    const call = client.callTool({ name: "ask_user_question", arguments: databaseAsk });
    const { session } = await pendingSoon();
    test.server.sessions.cancelTurn(session.id);
    const reply = (await call) as ToolReply;
    expect(reply.structuredContent).toEqual({
      status: "withdrawn",
      answers: {},
      continuedAutomatically: false,
    });
    expect(textOf(reply)).toContain("the user stopped the turn");
  });

  it("[B1] a validation error is a clear error result, each problem said once", async () => {
    const reply = (await client.callTool({
      name: "ask_user_question",
      arguments: { questions: [] },
    })) as ToolReply;
    expect(reply.isError).toBe(true);
    const lines = textOf(reply).split("\n");
    expect(textOf(reply)).toMatch(/ask_user_question/);
    expect(textOf(reply)).toMatch(/questions/);
    expect(new Set(lines).size).toBe(lines.length);
    const unknown = (await client.callTool({ name: "rm_rf", arguments: {} })) as ToolReply;
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/rm_rf/);
  });

  it("[B3] the SDK client's stream drops mid-wait; it resumes with Last-Event-ID and still gets the answer", async () => {
    const network = droppingFetch();
    const agent = await connect("flaky-agent", { fetch: network.fetch });
    const call = agent.callTool({ name: "ask_user_question", arguments: databaseAsk });
    const { session, pending } = await pendingSoon();
    await network.dropped;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(test.server.interactions.pending(session.id)).toHaveLength(1);
    test.server.interactions.answer(pending[0]!.request.interactionId, {
      "Which database?": { labels: ["Postgres"] },
    });
    const reply = (await call) as ToolReply;
    expect(reply.isError).toBe(false);
    expect(textOf(reply)).toContain("Postgres");
    await agent.close();
  });

  it("[B8][B3] a restart mid-call gives a retryable JSON-RPC error; the retried call gets the answer given after the restart, from the same card", async () => {
    const plan = "# Plan\n\n1. Migrate";
    const call = client.callTool({ name: "review_plan", arguments: { plan } });
    const failed = call.then(
      () => undefined,
      (error: unknown) => error,
    );
    const { session, pending } = await pendingSoon();
    const cardId = pending[0]!.request.interactionId;
    await test.restart();
    const error = await failed;
    expect(error).toMatchObject({ code: -32000 });
    expect(String((error as Error).message)).toMatch(/review_plan again with the same arguments/i);
    expect(String((error as Error).message)).not.toMatch(/session manager is closed/);
    expect(
      test.server.interactions.pending(session.id).map((p) => p.request.interactionId),
    ).toEqual([cardId]);

    await client.close().catch(() => {});
    client = await connect();
    const retried = client.callTool({ name: "review_plan", arguments: { plan } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const review = test.server.interactions.pending(session.id)[0]!.request;
    expect(review.interactionId).toBe(cardId);
    if (review.kind !== "question") throw new Error("a plan review is a question");
    expect(
      test.server.interactions.answer(cardId, {
        [review.questions[0]!.question]: { labels: ["Approve"] },
      }),
    ).toEqual({ ok: true });
    const reply = (await retried) as ToolReply;
    expect(textOf(reply)).toMatch(/approved the plan/);
    expect(reply.structuredContent).toEqual({ verdict: "approve", option: "default" });
    const cards = entries(session.id).filter((s) => s.entry.kind === "interaction.requested");
    expect(cards).toHaveLength(1);
    const calls = entries(session.id).filter((s) => s.entry.kind === "tool.call");
    expect(calls).toHaveLength(1);
  });

  it("[B6][X4] a one-shot client run twice, across a restart and without DELETE, continues the same session: revision 2 diffs against revision 1", async () => {
    const first = client.callTool({ name: "review_plan", arguments: { plan: "# Plan\n\n1. One" } });
    let { pending } = await pendingSoon();
    const review = pending[0]!.request;
    if (review.kind !== "question") throw new Error("a plan review is a question");
    test.server.interactions.answer(review.interactionId, {
      [review.questions[0]!.question]: { labels: ["Refuse"], other: "Add a test step" },
    });
    await first;
    await client.close();
    await test.restart();

    client = await connect();
    const second = client.callTool({
      name: "review_plan",
      arguments: { plan: "# Plan\n\n1. One\n2. Test" },
    });
    ({ pending } = await pendingSoon());
    const revised = pending[0]!.request;
    if (revised.kind !== "question") throw new Error("a plan review is a question");
    expect(revised.planRevision).toEqual({
      number: 2,
      contentHash: expect.any(String),
      previous: { plan: "# Plan\n\n1. One", feedback: ["Add a test step"] },
    });
    const sessions = test.server.sessions.summaries().filter((s) => s.model === "mcp/test-agent");
    expect(sessions).toHaveLength(1);
    test.server.interactions.cancel(revised.interactionId);
    await second;
  });

  it("[B6] the workspace root an agent offers as MCP roots keys its session", async () => {
    const here = await connect("rooted", { root: "/work/project-a" });
    const there = await connect("rooted", { root: "/work/project-b" });
    const againHere = await connect("rooted", { root: "/work/project-a" });
    for (const agent of [here, there, againHere]) {
      await agent.callTool({ name: "write_todos", arguments: { todos: [] } });
      await agent.close();
    }
    const rooted = test.server.sessions.summaries().filter((s) => s.model === "mcp/rooted");
    expect(rooted).toHaveLength(2);
  });

  it("[B5] 100 connect/disconnect cycles without DELETE leave a waiting call untouched", async () => {
    const call = client.callTool({ name: "ask_user_question", arguments: databaseAsk });
    const { session, pending } = await pendingSoon();
    for (let cycle = 0; cycle < 100; cycle++) {
      const passer = await connect(`passer-${cycle % 3}`);
      await passer.close();
    }
    expect(test.server.interactions.pending(session.id)).toHaveLength(1);
    test.server.interactions.answer(pending[0]!.request.interactionId, {
      "Which database?": { labels: ["SQLite"] },
    });
    expect(textOf(await call)).toContain("SQLite");
  }, 60_000);
});

describe("late answers over MCP (B7, X2)", () => {
  let test: TestServer;
  afterEach(() => test.stop());

  it("[B7][X2] a late answer given after auto-continue reaches the agent with its next result", async () => {
    test = await startTestServer({ timings: { graceMs: 20, deadlineMs: 150 } });
    const agent = new Client({ name: "late-agent", version: "1.0.0" });
    await agent.connect(
      new StreamableHTTPClientTransport(new URL(`${test.origin}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${test.server.token}` } },
      }),
    );
    const first = (await agent.callTool({
      name: "ask_user_question",
      arguments: databaseAsk,
    })) as ToolReply;
    expect(first.structuredContent).toMatchObject({ answers: {}, continuedAutomatically: true });
    const session = test.server.sessions.summaries().find((s) => s.model === "mcp/late-agent");
    const db = openDatabase(test.dbPath);
    const resolved = new SessionLog(db, systemClock)
      .entriesAfter(session!.id, 0)
      .find((stored) => stored.entry.kind === "interaction.resolved");
    db.close();
    const interactionId =
      resolved?.entry.kind === "interaction.resolved" ? resolved.entry.interactionId : "";

    const { client: page } = await TestClient.greeted(test.wsUrl, test.browserHeaders);
    page.send({
      type: "interaction.lateAnswer",
      interactionId,
      answers: { "Which database?": { labels: ["SQLite"] } },
    });
    expect(await page.next("receipt")).toMatchObject({ interactionId, ok: true });
    page.socket.close();

    const next = (await agent.callTool({
      name: "write_todos",
      arguments: { todos: [] },
    })) as ToolReply;
    expect(textOf(next)).toMatch(/SQLite/);
    const after = (await agent.callTool({
      name: "write_todos",
      arguments: { todos: [] },
    })) as ToolReply;
    expect(textOf(after)).not.toMatch(/SQLite/);
    await agent.close();
  });
});

describe("an agent's name as its session key (B6)", () => {
  it("[B6] keeps letters of every script, so differently named agents stay apart", () => {
    expect(clientNameOf("光")).not.toBe(clientNameOf("月"));
    expect(clientNameOf("光")).toBe("光");
    expect(clientNameOf("Claude Code")).toBe("Claude-Code");
    expect(clientNameOf(" /../evil\n")).toBe("..-evil");
    expect(clientNameOf("")).toBe("agent");
    expect([...clientNameOf("名".repeat(60))]).toHaveLength(40);
  });
});
