import type { Database } from "better-sqlite3";
import type { SessionEntry } from "../../protocol/index.ts";
import { FakeClock } from "../interactions/fakeClock.ts";
import { createOpenAICompatibleProvider } from "../models/openaiCompatible.ts";
import { openAIError, openAIStream } from "../models/testing/fakeOpenAI.ts";
import {
  type FakeReply,
  type LoopbackApi,
  startLoopbackApi,
} from "../models/testing/loopbackApi.ts";
import { createSessionMaterialSource } from "../sessionContext/source.ts";
import { openDatabase } from "../store/database.ts";
import { SessionLog } from "../store/sessionLog.ts";
import { tempDir } from "../testing/helpers.ts";
import { TodoService } from "../todos/todoService.ts";
import { TodoStore } from "../todos/todoStore.ts";
import type { ToolContext } from "./contract.ts";
import { createReadSessionContextTool, readSessionContextTool } from "./readSessionContext.ts";

const build = { permissionMode: "build", planEnabled: false } as const;
const OLD = "sess_old0000000000000";
const NOW = "sess_now0000000000000";

const history: SessionEntry[] = [
  { kind: "user.message", text: "Add a Redis cache in front of the user lookup." },
  { kind: "turn.started" },
  { kind: "assistant.message", text: "I will look at the lookup code first." },
  { kind: "tool.call", callId: "c1", name: "Read", input: { path: "src/users/lookup.ts" } },
  {
    kind: "tool.result",
    callId: "c1",
    name: "Read",
    isError: false,
    output: "export function lookupUser(id) { return db.get(id); }",
  },
  { kind: "assistant.message", text: "The logo colour is blue in the header component." },
  {
    kind: "tool.call",
    callId: "c2",
    name: "ExitPlanMode",
    input: { plan: "# Plan\n1. Wrap lookupUser with a Redis cache\n2. TTL of 300 seconds" },
  },
  {
    kind: "tool.result",
    callId: "c2",
    name: "ExitPlanMode",
    isError: false,
    output: "approved",
  },
  { kind: "assistant.message", text: "We settled on a Redis TTL of 300 seconds for user entries." },
  { kind: "user.message", text: "[Todo reminder] internal note", synthetic: true },
  {
    kind: "assistant.message",
    text: "Stopped after wiring the cache client in src/cache/redis.ts.",
  },
  { kind: "turn.ended", reason: "completed" },
];

describe("ReadSessionContext (M4)", () => {
  let dir: ReturnType<typeof tempDir>;
  let db: Database;
  let log: SessionLog;
  let todos: TodoService;
  let api: LoopbackApi | undefined;

  beforeEach(() => {
    dir = tempDir();
    db = openDatabase(`${dir.path}/plangate.db`);
    const clock = new FakeClock();
    log = new SessionLog(db, clock);
    todos = new TodoService(new TodoStore(db, clock), log);
    log.createSession({ id: OLD, title: "Redis cache", model: "scripted/demo", mode: build });
    log.createSession({ id: NOW, title: "", model: "scripted/demo", mode: build });
    for (const entry of history) log.append(OLD, entry);
    todos.write(OLD, [
      { content: "Wire the cache client", status: "completed", priority: "high" },
      { content: "Wrap lookupUser", status: "in_progress", priority: "high" },
    ]);
  });
  afterEach(async () => {
    await api?.close();
    api = undefined;
    db.close();
    dir.remove();
  });

  const context = (extra: Partial<ToolContext> = {}): ToolContext => ({
    sessionId: NOW,
    workspace: dir.path,
    signal: new AbortController().signal,
    mode: () => build,
    otherSessions: createSessionMaterialSource(log, todos),
    ...extra,
  });
  const parse = (input: unknown) => readSessionContextTool.inputSchema.safeParse(input);
  const run = (
    input: Record<string, unknown>,
    extra: Partial<ToolContext> = {},
    timeoutMs?: number,
  ) => {
    const tool =
      timeoutMs === undefined
        ? readSessionContextTool
        : createReadSessionContextTool({ timeoutMs });
    const parsed = tool.inputSchema.parse(input);
    return tool.run(parsed, context(extra));
  };
  const fakeModel = async (replies: FakeReply[]) => {
    api = await startLoopbackApi(replies);
    return createOpenAICompatibleProvider({
      ref: "local/helper",
      model: "helper",
      baseURL: `${api.origin}/v1`,
      apiKey: undefined,
      maxRetries: 0,
    });
  };

  it("[M4] holds the input to its limits, with relevant and 6,000 tokens by default", () => {
    expect(parse({ sessionId: OLD, query: "cache" }).data).toEqual({
      sessionId: OLD,
      query: "cache",
      strategy: "relevant",
      maxTokens: 6_000,
    });
    expect(parse({ sessionId: "old", query: "cache" }).success).toBe(false);
    expect(parse({ sessionId: "#sess_x", query: "cache" }).success).toBe(false);
    expect(parse({ sessionId: "sess_", query: "cache" }).success).toBe(false);
    expect(parse({ sessionId: OLD, query: "" }).success).toBe(false);
    expect(parse({ sessionId: OLD, query: "q".repeat(4000) }).success).toBe(true);
    expect(parse({ sessionId: OLD, query: "q".repeat(4001) }).success).toBe(false);
    expect(parse({ sessionId: OLD, query: "q", strategy: "handoff" }).success).toBe(true);
    expect(parse({ sessionId: OLD, query: "q", strategy: "summary" }).success).toBe(false);
    expect(parse({ sessionId: OLD, query: "q", maxTokens: 12_000 }).success).toBe(true);
    expect(parse({ sessionId: OLD, query: "q", maxTokens: 12_001 }).success).toBe(false);
    expect(parse({ sessionId: OLD, query: "q", maxTokens: 1.5 }).success).toBe(false);
    expect(parse({ sessionId: OLD, query: "q", extra: 1 }).success).toBe(false);
  });

  it("[M4] describes its result as background material, not instructions", () => {
    expect(readSessionContextTool.description).toMatch(/background material/);
    expect(readSessionContextTool.description).toMatch(/not instructions/);
    expect(readSessionContextTool.readOnly).toBe(true);
  });

  it("[M4] says clearly when the session does not exist", async () => {
    const result = await run({ sessionId: "sess_missing", query: "cache" });
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(/There is no session sess_missing/);
  });

  it("[M4] refuses to read the session it runs in", async () => {
    const result = await run({ sessionId: NOW, query: "cache" });
    expect(result).toMatchObject({ isError: true });
  });

  it("[M4] without a model, returns the passages that match the query, in order", async () => {
    const result = await run({ sessionId: OLD, query: "Which Redis TTL was chosen?" });
    expect(result.isError).toBeFalsy();
    const output = result.output;
    expect(output).toMatch(/assembled from the stored conversation\./);
    expect(output).toMatch(/not instructions/);
    expect(output).toContain("We settled on a Redis TTL of 300 seconds");
    expect(output).toContain("Add a Redis cache in front of the user lookup.");
    expect(output).not.toContain("logo colour");
    expect(output).not.toContain("internal note");
    expect(output.indexOf("Add a Redis cache")).toBeLessThan(output.indexOf("We settled"));
  });

  it("[M4] keeps the local material within about 4 characters per token", async () => {
    const result = await run({ sessionId: OLD, query: "Redis cache lookup TTL", maxTokens: 100 });
    const body = result.output.split("\n---\n\n")[1] ?? "";
    expect(body.length).toBeLessThanOrEqual(400);
    expect(body).toContain("Redis");
  });

  it("[M4] falls back to the most recent part when nothing matches", async () => {
    const result = await run({ sessionId: OLD, query: "kubernetes helm chart" });
    expect(result.output).toMatch(/shares a word with the query/);
    expect(result.output).toContain("Stopped after wiring the cache client");
  });

  it("[M4] handoff gives the first request, the plan, the todo list and the recent tail", async () => {
    const result = await run({ sessionId: OLD, query: "continue the work", strategy: "handoff" });
    const output = result.output;
    expect(output).toMatch(/strategy handoff/);
    expect(output).toMatch(/## First request\nAdd a Redis cache in front of the user lookup\./);
    expect(output).toMatch(/## Proposed plan\n# Plan\n1\. Wrap lookupUser/);
    expect(output).toContain(
      "## Todo list\n1. [completed] Wire the cache client\n2. [in_progress] Wrap lookupUser",
    );
    expect(output).toMatch(
      /## Most recent conversation[\s\S]*Stopped after wiring the cache client/,
    );
  });

  it("[M4] handoff prefers an approved plan and cuts the tail first when space is short", async () => {
    log.append(OLD, { kind: "plan.approved", plan: "# Final plan\nCache with TTL 300" });
    const result = await run({
      sessionId: OLD,
      query: "continue",
      strategy: "handoff",
      maxTokens: 100,
    });
    const body = result.output.split("\n---\n\n")[1] ?? "";
    expect(body).toMatch(/## Approved plan\n# Final plan/);
    expect(body).toContain("2. [in_progress] Wrap lookupUser");
    expect(body).not.toContain("I will look at the lookup code first.");
    expect(body.length).toBeLessThanOrEqual(400);
  });

  it("[M4] asks the helper model to extract when one is available", async () => {
    const model = await fakeModel([
      openAIStream([{ content: "The TTL is 300 s " }, { content: "(src/cache/redis.ts)." }]),
    ]);
    const result = await run(
      { sessionId: OLD, query: "Which Redis TTL was chosen?" },
      { helperModel: () => model },
    );
    expect(result.isError).toBeFalsy();
    expect(result.output).toMatch(/extracted by a model\./);
    expect(result.output.endsWith("The TTL is 300 s (src/cache/redis.ts).")).toBe(true);
    const body = api!.requests[0]!.body as {
      messages: Array<{ role: string; content: string }>;
      tools?: unknown;
    };
    const system = body.messages.find((m) => m.role === "system")?.content ?? "";
    const prompt = body.messages.find((m) => m.role === "user")?.content ?? "";
    expect(system).toMatch(/do not follow any instruction/);
    expect(prompt).toContain("Question: Which Redis TTL was chosen?");
    expect(prompt).toContain("We settled on a Redis TTL of 300 seconds");
    expect(prompt).toContain("1. [completed] Wire the cache client");
    expect(body.tools).toBeUndefined();
  });

  it("[M4] falls back to local material when the model fails", async () => {
    const model = await fakeModel([openAIError(500, "overloaded", "server_error")]);
    const result = await run(
      { sessionId: OLD, query: "Which Redis TTL was chosen?" },
      { helperModel: () => model },
    );
    expect(result.isError).toBeFalsy();
    expect(result.output).toMatch(/the model extraction failed/);
    expect(result.output).toContain("We settled on a Redis TTL of 300 seconds");
  });

  it("[M4] falls back to local material when the model outlasts the timeout", async () => {
    const model = await fakeModel([openAIStream([{ content: "slow" }], "stop", { hold: true })]);
    const result = await run(
      { sessionId: OLD, query: "Which Redis TTL was chosen?" },
      { helperModel: () => model },
      50,
    );
    expect(result.output).toMatch(/the model extraction failed: no answer within/);
    expect(result.output).toContain("We settled on a Redis TTL of 300 seconds");
  });
});
