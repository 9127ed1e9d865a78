import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult, Task } from "@modelcontextprotocol/sdk/types.js";
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  ListRootsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { SessionEntry, StoredEntry } from "../../protocol/index.ts";
import { mcpQuestionSoon, startTestServer, type TestServer } from "../testing/testServer.ts";
import { TestClient } from "../testing/wsClient.ts";
import { type AgentTask, AgentTasks, loggedTasks, taskPage } from "./mcpTasks.ts";
import { messagesOf, RawMcpClient } from "./rawMcpClient.ts";
import { WaitingCall } from "./waitingCalls.ts";

/** MCP tasks (spec 2025-11-25): a waiting call an agent polls instead of holding a request. */

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

const textOf = (result: CallToolResult) =>
  result.content.map((part) => (part.type === "text" ? part.text : "")).join("");

describe("MCP tasks (X1, B3): a call the agent polls instead of holding open", () => {
  let test: TestServer;
  const clients: Client[] = [];

  const connect = async (name = "task-agent") => {
    const agent = new Client({ name, version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(`${test.origin}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${test.server.token}` } },
    });
    await agent.connect(transport);
    clients.push(agent);
    return agent;
  };

  /** Makes the call as a task, as the SDK's client does, and returns the task it gets at once. */
  const createTask = async (agent: Client, name: string, args: unknown): Promise<Task> => {
    const created = await agent.request(
      { method: "tools/call", params: { name, arguments: args as Record<string, unknown> } },
      CreateTaskResultSchema,
      { task: { ttl: 60_000 } },
    );
    return created.task;
  };

  /** A call held open beside a task (it is no task), once its card is the session's second. */
  const holdCallBeside = async (agent: Client, sessionId: string) => {
    const held = { ...databaseAsk.questions[0]!, question: "Held?" };
    void agent
      .callTool({ name: "ask_user_question", arguments: { questions: [held] } })
      .catch(() => {});
    for (let i = 0; i < 100 && test.server.interactions.pending(sessionId).length < 2; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(test.server.interactions.pending(sessionId)).toHaveLength(2);
  };

  const pendingSoon = () => mcpQuestionSoon(test);

  beforeEach(async () => {
    test = await startTestServer({ mcpTaskPollMs: 20 });
  });
  afterEach(async () => {
    for (const agent of clients.splice(0)) await agent.close().catch(() => {});
    await test.stop();
  });

  it("[X1] advertises tasks, and lists the two tools that wait on the user as callable as a task", async () => {
    const agent = await connect();
    expect(agent.getServerCapabilities()?.tasks?.requests?.tools?.call).toEqual({});
    expect(agent.getServerCapabilities()?.tasks?.cancel).toEqual({});
    expect(agent.getServerCapabilities()?.tasks?.list).toEqual({});
    const { tools } = await agent.listTools();
    expect(
      Object.fromEntries(tools.map((tool) => [tool.name, tool.execution?.taskSupport])),
    ).toEqual({ ask_user_question: "optional", review_plan: "optional", write_todos: "forbidden" });
    // The listing is the SDK's own otherwise: schemas, annotations.
    const ask = tools.find((tool) => tool.name === "ask_user_question")!;
    expect(ask.inputSchema.type).toBe("object");
    expect(ask.outputSchema?.type).toBe("object");
    expect(ask.annotations).toEqual({ readOnlyHint: true, destructiveHint: false });
  });

  it("[X1][B3] the SDK client's task stream: the task comes back at once, the card waits, the answer arrives by polling with its structured content", async () => {
    const agent = await connect();
    await agent.listTools();
    const messages: Array<{ type: string; task?: Task; result?: CallToolResult }> = [];
    const stream = (async () => {
      for await (const message of agent.experimental.tasks.callToolStream(
        { name: "ask_user_question", arguments: databaseAsk },
        CallToolResultSchema,
      )) {
        messages.push(message as never);
      }
    })();
    const { session, pending } = await pendingSoon();
    for (let i = 0; i < 200 && messages.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // The call's answer, before anyone answered: the task.
    expect(messages[0]?.type).toBe("taskCreated");
    const taskId = messages[0]!.task!.taskId;
    expect(messages[0]!.task!.status).toBe("working");
    expect(messages[0]!.task!.ttl).toBeNull();
    expect(
      test.server.interactions.answer(pending[0]!.request.interactionId, {
        "Which database?": { labels: ["SQLite"] },
      }),
    ).toEqual({ ok: true });
    await stream;
    const result = messages.find((message) => message.type === "result")!.result!;
    expect(textOf(result)).toContain("SQLite");
    expect(result.structuredContent).toMatchObject({
      status: "answered",
      answers: { "Which database?": { labels: ["SQLite"] } },
    });
    expect(result._meta?.["io.modelcontextprotocol/related-task"]).toEqual({ taskId });
    const done = await agent.experimental.tasks.getTask(taskId);
    expect(done.status).toBe("completed");
    expect(done.ttl).toBeGreaterThan(0);
    expect(test.server.interactions.pending(session.id)).toHaveLength(0);
  });

  it("[X1][B3] tasks/result asked before the answer waits for it; tasks/cancel withdraws the question and the task answers as cancelled", async () => {
    const agent = await connect();
    const asked = await createTask(agent, "ask_user_question", databaseAsk);
    const { session, pending } = await pendingSoon();
    const waiting = agent.experimental.tasks.getTaskResult(asked.taskId, CallToolResultSchema);
    await new Promise((resolve) => setTimeout(resolve, 100));
    test.server.interactions.answer(pending[0]!.request.interactionId, {
      "Which database?": { labels: ["Postgres"] },
    });
    expect(textOf(await waiting)).toContain("Postgres");

    const plan = await createTask(agent, "review_plan", { plan: "# Plan\n\n1. Migrate" });
    for (let i = 0; i < 100 && test.server.interactions.pending(session.id).length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(test.server.interactions.pending(session.id)).toHaveLength(1);
    const cancelled = await agent.experimental.tasks.cancelTask(plan.taskId);
    expect(cancelled.status).toBe("cancelled");
    for (let i = 0; i < 100 && test.server.interactions.pending(session.id).length > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(test.server.interactions.pending(session.id)).toHaveLength(0);
    expect((await agent.experimental.tasks.getTask(plan.taskId)).status).toBe("cancelled");
    const after = await agent.experimental.tasks.getTaskResult(plan.taskId, CallToolResultSchema);
    expect(after.isError).toBe(true);
    expect(textOf(after)).toMatch(/cancelled/);
    await expect(agent.experimental.tasks.cancelTask(plan.taskId)).rejects.toThrow(
      /terminal status 'cancelled'/,
    );
  });

  it("[X1][R7] another agent cannot read or cancel a task, and asking for one makes no session", async () => {
    const owner = await connect("owner-agent");
    const task = await createTask(owner, "ask_user_question", databaseAsk);
    await pendingSoon();
    const sessionsBefore = test.server.sessions.summaries().length;
    const other = await connect("other-agent");
    await expect(other.experimental.tasks.getTask(task.taskId)).rejects.toThrow(/Task not found/);
    await expect(other.experimental.tasks.cancelTask(task.taskId)).rejects.toThrow(
      /Task not found/,
    );
    await expect(owner.experimental.tasks.getTask("mcp_nosuchtask")).rejects.toThrow(
      /Task not found/,
    );
    expect(test.server.sessions.summaries()).toHaveLength(sessionsBefore);
    // With a session of its own, still not another's task.
    await createTask(other, "ask_user_question", databaseAsk);
    expect(test.server.sessions.summaries()).toHaveLength(sessionsBefore + 1);
    await expect(other.experimental.tasks.getTask(task.taskId)).rejects.toThrow(/Task not found/);
    await expect(
      other.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema),
    ).rejects.toThrow(/Task not found/);
    expect((await owner.experimental.tasks.getTask(task.taskId)).status).toBe("working");
  });

  it("[B8][B3] across a restart: a waiting task is taken up again from the log, and a task answered before the restart still gives its result", async () => {
    let agent = await connect();
    const answered = await createTask(agent, "ask_user_question", databaseAsk);
    const { session, pending } = await pendingSoon();
    const say = async (text: string) => {
      const count = () =>
        test.server.sessions.summaries().find((s) => s.id === session.id)!.lastSeq;
      const before = count();
      const { client: page } = await TestClient.greeted(test.wsUrl, test.browserHeaders);
      page.send({ type: "prompt", sessionId: session.id, text });
      for (let i = 0; i < 100 && count() === before; i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      page.socket.close();
    };
    // B7: written while the task waits; its result, read only after the restart, carries it.
    await say("Use the read replica");
    test.server.interactions.answer(pending[0]!.request.interactionId, {
      "Which database?": { labels: ["SQLite"] },
    });
    for (let i = 0; i < 100; i++) {
      if ((await agent.experimental.tasks.getTask(answered.taskId)).status !== "working") break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // B7: the person writes to the agent; it hears that with its next result, once.
    await say("Keep the snapshot tests");
    const todos = await agent.callTool({ name: "write_todos", arguments: { todos: [] } });
    expect(textOf(todos as CallToolResult)).toContain("> Keep the snapshot tests");
    const plan = { plan: "# Plan\n\n1. Migrate" };
    const waiting = await createTask(agent, "review_plan", plan);
    for (let i = 0; i < 100 && test.server.interactions.pending(session.id).length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const cardId = test.server.interactions.pending(session.id)[0]!.request.interactionId;

    await test.restart({ mcpTaskPollMs: 20 });
    await agent.close().catch(() => {});
    agent = await connect();

    const before = await agent.experimental.tasks.getTaskResult(
      answered.taskId,
      CallToolResultSchema,
    );
    expect(textOf(before)).toContain("SQLite");
    expect(textOf(before)).toContain("> Use the read replica");
    expect(textOf(before)).not.toContain("Keep the snapshot tests");
    expect(before.structuredContent).toMatchObject({ status: "answered" });

    const resumed = await agent.experimental.tasks.getTask(waiting.taskId);
    expect(resumed.status).toBe("working");
    const review = test.server.interactions.pending(session.id)[0]!.request;
    expect(review.interactionId).toBe(cardId);
    if (review.kind !== "question") throw new Error("a plan review is a question");
    test.server.interactions.answer(cardId, {
      [review.questions[0]!.question]: { labels: ["Approve"] },
    });
    const result = await agent.experimental.tasks.getTaskResult(
      waiting.taskId,
      CallToolResultSchema,
    );
    expect(textOf(result)).toMatch(/approved the plan/);
    expect(textOf(result)).not.toContain("Keep the snapshot tests");
    expect(result.structuredContent).toEqual({ verdict: "approve", option: "default" });
  });

  it("[X1][B3] tasks/list names the agent's own tasks, working and ended, oldest first; another agent lists only its own", async () => {
    const agent = await connect();
    const first = await createTask(agent, "ask_user_question", databaseAsk);
    const { session, pending } = await pendingSoon();
    const second = await createTask(agent, "review_plan", { plan: "# Plan\n\n1. Migrate" });
    test.server.interactions.answer(pending[0]!.request.interactionId, {
      "Which database?": { labels: ["SQLite"] },
    });
    for (let i = 0; i < 100; i++) {
      if ((await agent.experimental.tasks.getTask(first.taskId)).status !== "working") break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await holdCallBeside(agent, session.id);

    const listed = await agent.experimental.tasks.listTasks();
    expect(listed.tasks.map((task) => [task.taskId, task.status])).toEqual([
      [first.taskId, "completed"],
      [second.taskId, "working"],
    ]);
    expect(listed.nextCursor).toBeUndefined();
    expect(listed.tasks[1]).toMatchObject({ ttl: null, pollInterval: 20 });

    const stranger = await connect("other-agent");
    expect((await stranger.experimental.tasks.listTasks()).tasks).toEqual([]);
    const own = await createTask(stranger, "review_plan", { plan: "# Another plan" });
    expect(
      (await stranger.experimental.tasks.listTasks()).tasks.map((task) => task.taskId),
    ).toEqual([own.taskId]);
    await expect(stranger.experimental.tasks.listTasks("bm90LWEtY3Vyc29y")).rejects.toThrow(
      /Invalid cursor/,
    );
  });

  it("[B8][B3] after a restart tasks/list still names the agent's tasks from the log: the waiting one taken up again, the answered one with its result, no held call", async () => {
    let agent = await connect();
    const answered = await createTask(agent, "ask_user_question", databaseAsk);
    const { session, pending } = await pendingSoon();
    test.server.interactions.answer(pending[0]!.request.interactionId, {
      "Which database?": { labels: ["SQLite"] },
    });
    for (let i = 0; i < 100; i++) {
      if ((await agent.experimental.tasks.getTask(answered.taskId)).status !== "working") break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const waiting = await createTask(agent, "review_plan", { plan: "# Plan\n\n1. Migrate" });
    await holdCallBeside(agent, session.id);

    await test.restart({ mcpTaskPollMs: 20 });
    await agent.close().catch(() => {});
    agent = await connect();

    const listed = await agent.experimental.tasks.listTasks();
    expect(listed.tasks.map((task) => [task.taskId, task.status])).toEqual([
      [answered.taskId, "completed"],
      [waiting.taskId, "working"],
    ]);
    const before = await agent.experimental.tasks.getTaskResult(
      answered.taskId,
      CallToolResultSchema,
    );
    expect(textOf(before)).toContain("SQLite");
    // Taken up: the plan's card waits on it, and its answer ends the task.
    const review = test.server.interactions
      .pending(session.id)
      .map((item) => item.request)
      .find((request) => request.kind === "question" && request.questions[0]!.question !== "Held?");
    if (review?.kind !== "question") throw new Error("the plan review is still pending");
    test.server.interactions.answer(review.interactionId, {
      [review.questions[0]!.question]: { labels: ["Approve"] },
    });
    const result = await agent.experimental.tasks.getTaskResult(
      waiting.taskId,
      CallToolResultSchema,
    );
    expect(result.structuredContent).toEqual({ verdict: "approve", option: "default" });
    // Listed again, nothing is read back twice.
    expect((await agent.experimental.tasks.listTasks()).tasks.map((task) => task.status)).toEqual([
      "completed",
      "completed",
    ]);
  });

  it("[B3][B4] on the wire: the call's reply is its task, and each poll is one short JSON reply that says how long to wait", async () => {
    const raw = new RawMcpClient(`${test.origin}/mcp`, test.server.token);
    await raw.initialize("raw-task-agent");
    const created = await raw.post(
      raw.request("tools/call", {
        name: "ask_user_question",
        arguments: databaseAsk,
        task: { ttl: 60_000 },
      }),
    );
    const task = (messagesOf(created)[0]!.result as { task: Task }).task;
    expect(task.status).toBe("working");
    expect(task.pollInterval).toBe(20);
    const polled = await raw.post(raw.request("tasks/get", { taskId: task.taskId }));
    expect(polled.headers.get("content-type")).toBe("application/json");
    expect(polled.json).toMatchObject({
      jsonrpc: "2.0",
      result: { taskId: task.taskId, status: "working", ttl: null, pollInterval: 20 },
    });
    const other = await raw.post(raw.request("tasks/get", { taskId: "mcp_unknown" }));
    expect(JSON.stringify(messagesOf(other)[0])).toMatch(/Task not found/);
  });

  it("[B6] an agent that offers roots makes its first call as a task: its roots are asked, and the task lands in that workspace's session", async () => {
    const root = join(test.workspace, "packages", "app");
    mkdirSync(root, { recursive: true });
    const agent = new Client(
      { name: "rooted-agent", version: "1.0.0" },
      { capabilities: { roots: {} } },
    );
    let asked = 0;
    agent.setRequestHandler(ListRootsRequestSchema, async () => {
      asked += 1;
      return { roots: [{ uri: pathToFileURL(root).href }] };
    });
    await agent.connect(
      new StreamableHTTPClientTransport(new URL(`${test.origin}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${test.server.token}` } },
      }),
    );
    clients.push(agent);
    const task = await createTask(agent, "ask_user_question", databaseAsk);
    expect(task.status).toBe("working");
    const { session } = await pendingSoon();
    expect(session.model).toBe("mcp/rooted-agent");
    expect(asked).toBe(1);
    expect((await agent.experimental.tasks.getTask(task.taskId)).status).toBe("working");
  });

  it("[R12] tasks count against the calls one agent may have waiting", async () => {
    await test.restart({ mcpTaskPollMs: 20, mcpMaxWaitingPerSession: 2 });
    const agent = await connect();
    const ask = (n: number) => ({
      questions: [{ ...databaseAsk.questions[0]!, question: `Which database ${n}?` }],
    });
    await createTask(agent, "ask_user_question", ask(1));
    await createTask(agent, "ask_user_question", ask(2));
    const third = await agent.request(
      { method: "tools/call", params: { name: "ask_user_question", arguments: ask(3) } },
      CallToolResultSchema,
      { task: {} },
    );
    expect(third.isError).toBe(true);
    expect(textOf(third)).toMatch(/already has 2 calls waiting/);
  });
});

describe("MCP tasks: held results", () => {
  let test: TestServer;
  afterEach(() => test.stop());

  it("[R12] a tasks/result held open waits as a call does, and counts against the calls one agent may have waiting", async () => {
    test = await startTestServer({ mcpTaskPollMs: 20, mcpMaxWaitingPerSession: 2 });
    const agent = new Client({ name: "holding-agent", version: "1.0.0" });
    await agent.connect(
      new StreamableHTTPClientTransport(new URL(`${test.origin}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${test.server.token}` } },
      }),
    );
    const created = await agent.request(
      { method: "tools/call", params: { name: "ask_user_question", arguments: databaseAsk } },
      CreateTaskResultSchema,
      { task: {} },
    );
    const hold = () =>
      agent.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema);
    const held = [hold(), hold()];
    await new Promise((resolve) => setTimeout(resolve, 200));
    await expect(hold()).rejects.toThrow(/already has 2 calls waiting/);
    const { pending } = await mcpQuestionSoon(test);
    test.server.interactions.answer(pending[0]!.request.interactionId, {
      "Which database?": { labels: ["SQLite"] },
    });
    for (const result of await Promise.all(held)) expect(textOf(result)).toContain("SQLite");
    // Answered: the count is back, and a third request reads the result at once.
    expect(textOf(await hold())).toContain("SQLite");
    await agent.close();
  });
});

describe("AgentTasks (MCP tasks)", () => {
  it("[B4] asks for longer polls as more tasks wait, so their polls together stay bounded", () => {
    const tasks = new AgentTasks(
      () => 0,
      () => ({ content: [] }),
      { minPollMs: 1_000 },
    );
    const wait = (n: number) => {
      const call = new WaitingCall("ask_user_question", "key", undefined);
      call.callId = `mcp_${n}`;
      return tasks.track("sess_1", call);
    };
    const first = wait(0);
    expect(tasks.view(first).pollInterval).toBe(1_000);
    for (let n = 1; n < 2_000; n++) wait(n);
    // 2,000 tasks polling every 10 s: 200 polls a second.
    expect(tasks.view(first).pollInterval).toBe(10_000);
    for (let n = 2_000; n < 20_000; n++) wait(n);
    expect(tasks.view(first).pollInterval).toBe(30_000);
    expect(tasks.workingIn("sess_1")).toBe(20_000);
  });
});

describe("tasks/list after a restart", () => {
  it("[R12][B3] names every waiting task from the log, but of the ended ones only the newest an agent may keep", () => {
    let seq = 0;
    const logged = (at: number, entry: SessionEntry): StoredEntry => ({ seq: ++seq, at, entry });
    const call = (n: number, task: boolean): SessionEntry => ({
      kind: "tool.call",
      callId: `mcp_${n}`,
      name: "ask_user_question",
      input: {},
      ...(task ? { task: true as const } : {}),
    });
    const result = (n: number): SessionEntry => ({
      kind: "tool.result",
      callId: `mcp_${n}`,
      name: "ask_user_question",
      isError: false,
      output: "answered",
    });
    const entries = [
      ...[1, 2, 3, 4, 5].flatMap((n) => [
        logged(100 + n, call(n, true)),
        logged(200 + n, result(n)),
      ]),
      logged(300, call(6, true)),
      logged(301, call(7, false)),
      logged(302, call(8, true)),
      logged(303, result(8)),
    ];
    const { madeAsTasks, ended } = loggedTasks(entries, 0, 3);
    expect([...madeAsTasks].sort()).toEqual(["mcp_4", "mcp_5", "mcp_6", "mcp_8"]);
    expect(ended.size).toBe(6);
    // Ended before the hour kept: not named at all.
    expect([...loggedTasks(entries, 250, 3).madeAsTasks].sort()).toEqual(["mcp_6", "mcp_8"]);
  });
});

describe("tasks/list pages", () => {
  const made = (n: number, createdAt: number) =>
    ({ taskId: `mcp_${String(n).padStart(3, "0")}`, createdAt }) as AgentTask;

  it("[X1] pages by place: every task once, in order, whatever is made or forgotten between pages", () => {
    const all = Array.from({ length: 250 }, (_, n) => made(n, 1_000 + Math.floor(n / 3)));
    const first = taskPage(all, undefined, 100)!;
    expect(first.page).toEqual(all.slice(0, 100));
    // One forgotten before the next page, and one made meanwhile at the end.
    const later = [...all.slice(0, 50), ...all.slice(51), made(999, 9_999)];
    const second = taskPage(later, first.nextCursor, 100)!;
    expect(second.page).toEqual(all.slice(100, 200));
    const third = taskPage(later, second.nextCursor, 100)!;
    expect(third.page).toEqual([...all.slice(200), made(999, 9_999)]);
    expect(third.nextCursor).toBeUndefined();
  });

  it("[X1] refuses a cursor it did not give", () => {
    const all = [made(1, 5)];
    for (const cursor of ["", "!!", Buffer.from("x:").toString("base64url"), "bm9jb2xvbg"]) {
      expect(taskPage(all, cursor)).toBeUndefined();
    }
  });
});

describe("AgentTasks: what ended tasks may keep", () => {
  it("[R12] an agent that makes and cancels tasks fast keeps only its latest ended ones; another agent's stay", () => {
    const tasks = new AgentTasks(
      () => 0,
      () => ({ content: [] }),
      { endedPerSession: 10 },
    );
    const made = (sessionId: string, n: number) => {
      const call = new WaitingCall("ask_user_question", "key", undefined);
      call.callId = `mcp_${sessionId}_${n}`;
      return tasks.track(sessionId, call);
    };
    tasks.cancel(made("calm", 0));
    for (let n = 0; n < 25; n++) tasks.cancel(made("flood", n));
    expect(tasks.get("mcp_calm_0", "calm")?.status).toBe("cancelled");
    expect(tasks.get("mcp_flood_24", "flood")?.status).toBe("cancelled");
    expect(tasks.get("mcp_flood_0", "flood")).toBeUndefined();
    const kept = Array.from({ length: 25 }, (_, n) => tasks.get(`mcp_flood_${n}`, "flood")).filter(
      Boolean,
    );
    expect(kept.length).toBeLessThanOrEqual(10);
    expect(kept.length).toBeGreaterThanOrEqual(9);
  });
});
