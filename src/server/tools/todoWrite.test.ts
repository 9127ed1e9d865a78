import type { Database } from "better-sqlite3";
import type { TodoItem } from "../../protocol/index.ts";
import { FakeClock } from "../interactions/fakeClock.ts";
import { decidePermission } from "../permissions/decide.ts";
import { openDatabase } from "../store/database.ts";
import { SessionLog } from "../store/sessionLog.ts";
import { tempDir } from "../testing/helpers.ts";
import { TodoService } from "../todos/todoService.ts";
import { TodoStore } from "../todos/todoStore.ts";
import type { ToolContext } from "./contract.ts";
import { todoReadTool } from "./todoRead.ts";
import { todoWriteTool } from "./todoWrite.ts";

const build = { permissionMode: "build", planEnabled: false } as const;
const plan = { permissionMode: "build", planEnabled: true } as const;

const list: TodoItem[] = [
  { content: "Read the loader", status: "completed", priority: "high" },
  { content: "Add the cache", status: "in_progress", priority: "medium" },
  { content: "Write tests", status: "pending", priority: "low" },
];

describe("TodoWrite and TodoRead", () => {
  let dir: ReturnType<typeof tempDir>;
  let db: Database;
  let log: SessionLog;
  let service: TodoService;

  const context = (sessionId = "sess_a"): ToolContext => ({
    sessionId,
    workspace: "/tmp",
    signal: new AbortController().signal,
    mode: () => build,
    todos: service.forSession(sessionId),
  });

  beforeEach(() => {
    dir = tempDir();
    db = openDatabase(`${dir.path}/plangate.db`);
    const clock = new FakeClock();
    log = new SessionLog(db, clock);
    service = new TodoService(new TodoStore(db, clock), log);
    log.createSession({ id: "sess_a", title: "", model: "scripted/demo", mode: build });
    log.createSession({ id: "sess_b", title: "", model: "scripted/demo", mode: build });
  });
  afterEach(() => {
    db.close();
    dir.remove();
  });

  it("[T1] accepts content, status and priority only, and no ids", () => {
    const parse = (todos: unknown) => todoWriteTool.inputSchema.safeParse({ todos }).success;
    expect(parse(list)).toBe(true);
    expect(parse([])).toBe(true);
    expect(parse([{ content: "", status: "pending", priority: "low" }])).toBe(false);
    expect(parse([{ content: "   ", status: "pending", priority: "low" }])).toBe(false);
    expect(parse([{ content: "x", status: "doing", priority: "low" }])).toBe(false);
    expect(parse([{ content: "x", status: "pending", priority: "urgent" }])).toBe(false);
    expect(parse([{ content: "x", status: "pending" }])).toBe(false);
    expect(parse([{ id: "1", content: "x", status: "pending", priority: "low" }])).toBe(false);
    expect(todoWriteTool.inputSchema.safeParse({ todos: list, merge: true }).success).toBe(false);
  });

  it("[T1] states 'one in_progress' in the description but accepts two", () => {
    expect(todoWriteTool.description).toMatch(/one item in_progress/);
    expect(todoWriteTool.description).toMatch(/replaces the previous list/);
    const two = [
      { content: "a", status: "in_progress", priority: "low" },
      { content: "b", status: "in_progress", priority: "low" },
    ];
    expect(todoWriteTool.inputSchema.safeParse({ todos: two }).success).toBe(true);
  });

  it("[T2] returns the old list, the new list and a count by status", async () => {
    await todoWriteTool.run({ todos: [list[2]!] }, context());
    const result = await todoWriteTool.run({ todos: list }, context());
    expect(result.isError).toBeFalsy();
    const [summary, ...json] = result.output.split("\n");
    expect(summary).toBe("The todo list now has 3 items: 1 completed, 1 in progress, 1 pending.");
    expect(JSON.parse(json.join("\n"))).toEqual({
      oldTodos: [list[2]],
      todos: list,
      summary: { pending: 1, in_progress: 1, completed: 1, total: 3 },
    });
  });

  it("[T2] replaces the whole list and announces it as a todos.updated entry", async () => {
    await todoWriteTool.run({ todos: list }, context());
    await todoWriteTool.run({ todos: [list[0]!] }, context());
    expect(service.read("sess_a")).toEqual([list[0]]);
    expect(service.read("sess_b")).toEqual([]);
    const updates = log
      .entriesAfter("sess_a", 0)
      .map((stored) => stored.entry)
      .filter((entry) => entry.kind === "todos.updated");
    expect(updates).toEqual([
      { kind: "todos.updated", todos: list },
      { kind: "todos.updated", todos: [list[0]] },
    ]);
  });

  it("[T2] TodoRead returns the session's list", async () => {
    expect((await todoReadTool.run({}, context())).output).toBe("The todo list is empty.");
    await todoWriteTool.run({ todos: list }, context());
    const result = await todoReadTool.run({}, context());
    expect(result.output).toBe(
      [
        "3 items: 1 completed, 1 in progress, 1 pending.",
        "1. [completed] Read the loader (priority high)",
        "2. [in_progress] Add the cache (priority medium)",
        "3. [pending] Write tests (priority low)",
      ].join("\n"),
    );
    expect((await todoReadTool.run({}, context("sess_b"))).output).toBe("The todo list is empty.");
    expect(todoReadTool.inputSchema.safeParse({ sessionId: "sess_b" }).success).toBe(false);
  });

  it("[T2] says so when the host keeps no list", async () => {
    const bare: ToolContext = { ...context(), todos: undefined };
    expect(await todoWriteTool.run({ todos: list }, bare)).toMatchObject({ isError: true });
    expect(await todoReadTool.run({}, bare)).toMatchObject({ isError: true });
  });

  it("[T4] is read-only, session-scoped, needs no approval and runs in build and plan", () => {
    for (const tool of [todoWriteTool, todoReadTool]) {
      expect(tool.readOnly).toBe(true);
      expect(tool.destructive).toBe(false);
      expect(tool.requiresUserInteraction).toBeFalsy();
      expect(tool.allowedInPlanMode).toBe(true);
      expect(decidePermission(tool, { todos: list }, build)).toEqual({ type: "allow" });
      expect(decidePermission(tool, { todos: list }, plan)).toEqual({ type: "allow" });
      for (const permissionMode of ["edit", "yolo", "auto"] as const) {
        expect(
          decidePermission(tool, { todos: list }, { permissionMode, planEnabled: true }),
        ).toEqual({ type: "allow" });
      }
    }
  });
});
