import type { Database } from "better-sqlite3";
import type { SessionEntry, StoredEntry, TodoItem } from "../../protocol/index.ts";
import { FakeClock } from "../interactions/fakeClock.ts";
import { createInteractionRegistry } from "../interactions/registry.ts";
import type { ModelProvider, ModelRequest, ModelResponse } from "../models/provider.ts";
import { decidePermission } from "../permissions/decide.ts";
import { SessionManager } from "../sessions/sessionManager.ts";
import { openDatabase } from "../store/database.ts";
import { randomId } from "../store/ids.ts";
import { SessionLog } from "../store/sessionLog.ts";
import { tempDir } from "../testing/helpers.ts";
import { ToolRegistry } from "../tools/registry.ts";
import { todoReadTool } from "../tools/todoRead.ts";
import { todoWriteTool } from "../tools/todoWrite.ts";
import {
  assistantMessagesSince,
  createTodoReminder,
  isTodoReminder,
  TODO_REMINDER_INTERVAL,
  todoReminderDue,
  todoReminderText,
} from "./reminder.ts";
import { TodoService } from "./todoService.ts";
import { TodoStore } from "./todoStore.ts";

const stored = (entries: SessionEntry[]): StoredEntry[] =>
  entries.map((entry, index) => ({ seq: index + 1, at: 0, entry }));
const reply = (text = "ok"): SessionEntry => ({ kind: "assistant.message", text });
const call = (name: string, id = name): SessionEntry => ({
  kind: "tool.call",
  callId: id,
  name,
  input: {},
});
const result = (name: string, id = name): SessionEntry => ({
  kind: "tool.result",
  callId: id,
  name,
  isError: false,
  output: "",
});
const user = (text = "go on"): SessionEntry => ({ kind: "user.message", text });
const replies = (count: number): SessionEntry[] =>
  Array.from({ length: count }, (_, index) => reply(`reply ${index}`));
const offered = ["Read", "TodoWrite"];
const due = (entries: SessionEntry[], options: { continuation?: boolean; tools?: string[] } = {}) =>
  todoReminderDue({
    counts: assistantMessagesSince(stored(entries)),
    toolNames: options.tools ?? offered,
    continuation: options.continuation ?? false,
  });

describe("todo reminder (T5)", () => {
  it("[T5] is due after 10 assistant messages, not after 9", () => {
    expect(TODO_REMINDER_INTERVAL).toBe(10);
    expect(due(replies(9))).toBe(false);
    expect(due(replies(10))).toBe(true);
  });

  it("[T5] counts only assistant messages, never user messages", () => {
    const many = Array.from({ length: 30 }, () => user());
    expect(due([...many, ...replies(9)])).toBe(false);
    expect(due([...many, ...replies(10)])).toBe(true);
    const interleaved = replies(9).flatMap((entry) => [user(), entry, user()]);
    expect(due(interleaved)).toBe(false);
  });

  it("[T5] counts a reply's text and its tool calls as one assistant message", () => {
    const oneReply = [reply("looking"), call("Read", "a"), call("Read", "b")];
    const toolsOnly = [call("Read", "c"), call("Read", "d")];
    const entries = [...oneReply, result("Read", "a"), result("Read", "b"), ...toolsOnly];
    expect(assistantMessagesSince(stored(entries))).toEqual({
      sinceTodoWrite: 2,
      sinceReminder: 2,
    });
  });

  it("[T5] restarts the count at the last TodoWrite call", () => {
    const entries = [...replies(12), reply("updating"), call("TodoWrite"), result("TodoWrite")];
    expect(due([...entries, ...replies(9)])).toBe(false);
    expect(due([...entries, ...replies(10)])).toBe(true);
  });

  it("[T5] needs 10 since both the last TodoWrite and the last reminder", () => {
    const reminder: SessionEntry = {
      kind: "user.message",
      text: todoReminderText([]),
      synthetic: true,
    };
    expect(isTodoReminder(reminder)).toBe(true);
    expect(isTodoReminder({ ...reminder, synthetic: undefined })).toBe(false);
    const afterReminder = [
      ...replies(10),
      reminder,
      ...replies(4),
      call("TodoWrite"),
      ...replies(6),
    ];
    // 10 since the reminder but only 6 since the TodoWrite.
    expect(due(afterReminder)).toBe(false);
    expect(due([...afterReminder, ...replies(4)])).toBe(true);
    const writeThenReminder = [call("TodoWrite"), ...replies(12), reminder, ...replies(9)];
    expect(due(writeThenReminder)).toBe(false);
    expect(due([...writeThenReminder, reply()])).toBe(true);
    // Another kind of synthetic notice is not a reminder.
    const lateAnswer: SessionEntry = { kind: "user.message", text: "late answer", synthetic: true };
    expect(due([...replies(10), lateAnswer])).toBe(true);
  });

  it("[T5] is never due during an output-token continuation", () => {
    expect(due(replies(20), { continuation: true })).toBe(false);
  });

  it("[T5] is never due when TodoWrite is not offered", () => {
    expect(due(replies(20), { tools: ["Read", "TodoRead"] })).toBe(false);
  });

  it("[T5] is gentle and lists the current items as `n. [status] content`", () => {
    const todos: TodoItem[] = [
      { content: "Read the loader", status: "completed", priority: "high" },
      { content: "Add the cache", status: "in_progress", priority: "low" },
    ];
    const text = todoReminderText(todos);
    expect(text).toMatch(/ignore this note/);
    expect(text.endsWith("1. [completed] Read the loader\n2. [in_progress] Add the cache")).toBe(
      true,
    );
    expect(todoReminderText([])).toMatch(/empty/);
  });

  it("[T5] the hook reads the session's list from the todo table", () => {
    const hook = createTodoReminder({
      read: (sessionId) =>
        sessionId === "s1" ? [{ content: "Ship", status: "pending", priority: "high" }] : [],
    });
    const request = {
      sessionId: "s1",
      counts: assistantMessagesSince(stored(replies(10))),
      toolNames: offered,
    };
    expect(hook({ ...request, continuation: false })).toMatch(/1\. \[pending\] Ship$/);
    expect(hook({ ...request, continuation: true })).toBeUndefined();
  });
});

describe("todo reminder in the turn loop (T5)", () => {
  let dir: ReturnType<typeof tempDir>;
  let db: Database;
  let log: SessionLog;
  let manager: SessionManager;
  let requests: ModelRequest[];

  /** A model that answers each call with the next reply, then says "done". */
  const provider = (script: ModelResponse[]): ModelProvider => ({
    ref: "test/model",
    complete: async (request) => {
      requests.push({ ...request, messages: [...request.messages] });
      return script.shift() ?? { text: "done", toolCalls: [], stopReason: "end" };
    },
  });

  const open = (model: ModelProvider) => {
    db = openDatabase(`${dir.path}/plangate.db`);
    const clock = new FakeClock();
    log = new SessionLog(db, clock);
    const todos = new TodoService(new TodoStore(db, clock), log);
    manager = new SessionManager({
      log,
      interactions: createInteractionRegistry({
        append: (sessionId, entry) => log.append(sessionId, entry),
        clock,
        settings: () => ({ autoContinue: false, theme: "system" }),
        timings: { graceMs: 1_000, deadlineMs: 5_000 },
        newId: () => randomId("int_"),
      }),
      tools: new ToolRegistry([todoWriteTool, todoReadTool]),
      providerFor: () => model,
      permissions: decidePermission,
      workspace: dir.path,
      defaultModel: "test/model",
      defaultMode: "build",
      todoReminder: createTodoReminder(todos),
      contextFor: (sessionId) => ({ todos: todos.forSession(sessionId) }),
    });
    manager.start();
  };

  beforeEach(() => {
    dir = tempDir();
    requests = [];
  });
  afterEach(async () => {
    await manager.close();
    db.close();
    dir.remove();
  });

  const readCall = (id: string): ModelResponse => ({
    text: "",
    toolCalls: [{ id, name: "TodoRead", input: {} }],
    stopReason: "tool_use",
  });
  const notices = (sessionId: string) =>
    log
      .entriesAfter(sessionId, 0)
      .map((s) => s.entry)
      .filter((entry) => isTodoReminder(entry));

  it("[T5] stores the reminder as a synthetic user notice once ten replies follow the last TodoWrite", async () => {
    const script: ModelResponse[] = [
      {
        text: "Planning.",
        toolCalls: [
          {
            id: "w",
            name: "TodoWrite",
            input: { todos: [{ content: "Fix the bug", status: "in_progress", priority: "high" }] },
          },
        ],
        stopReason: "tool_use",
      },
      ...Array.from({ length: 10 }, (_, index) => readCall(`r${index}`)),
    ];
    open(provider(script));
    const { id } = manager.create();
    manager.prompt(id, "fix it");
    await manager.idle(id);
    // Call 1 writes; calls 2..11 are ten more assistant messages; call 12 gets the reminder.
    expect(requests).toHaveLength(12);
    const reminders = notices(id);
    expect(reminders).toHaveLength(1);
    expect(reminders[0]).toMatchObject({ synthetic: true });
    expect(reminders[0]!.kind === "user.message" && reminders[0]!.text).toMatch(
      /1\. \[in_progress\] Fix the bug$/,
    );
    const lastMessages = requests[11]!.messages;
    expect(lastMessages.at(-1)).toMatchObject({ role: "user" });
    expect(
      requests[10]!.messages.some((m) => m.role === "user" && m.content.includes("[Todo")),
    ).toBe(false);
  });

  it("[T5] injects nothing while the model continues after running out of output tokens", async () => {
    const script: ModelResponse[] = [
      ...Array.from({ length: 9 }, (_, index) => readCall(`r${index}`)),
      { text: "cut off", toolCalls: [], stopReason: "max_tokens" },
    ];
    open(provider(script));
    const { id } = manager.create();
    manager.prompt(id, "work");
    // The cut-off reply is followed by the user's steering message, so the loop calls again.
    await new Promise<void>((resolve) => {
      const stop = log.subscribe((_sessionId, s) => {
        if (s.entry.kind === "assistant.message" && s.entry.text === "cut off") {
          stop();
          manager.prompt(id, "please go on");
          resolve();
        }
      });
    });
    await manager.idle(id);
    const kinds = log.entriesAfter(id, 0).map((s) => s.entry.kind);
    expect(kinds.filter((kind) => kind === "assistant.message")).toHaveLength(2);
    // With the cut-off reply ten assistant messages have passed, so a reminder would be due;
    // the next call continues the cut-off reply, so none is stored.
    expect(notices(id)).toHaveLength(0);
  });
});
