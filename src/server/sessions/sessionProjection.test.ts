import { realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Database } from "better-sqlite3";
import type { SessionEntry, StoredEntry } from "../../protocol/index.ts";
import { FakeClock } from "../interactions/fakeClock.ts";
import { createInteractionRegistry } from "../interactions/registry.ts";
import type { ModelMessage, ModelProvider } from "../models/provider.ts";
import { decidePermission } from "../permissions/decide.ts";
import { compactConversation, compactWeighed } from "../plan/compaction.ts";
import {
  nextModeReminder,
  PLAN_MODE_EXIT_REMINDER,
  PLAN_MODE_REMINDER,
} from "../plan/reminders.ts";
import { openDatabase } from "../store/database.ts";
import { randomId } from "../store/ids.ts";
import { SessionLog } from "../store/sessionLog.ts";
import { tempDir } from "../testing/helpers.ts";
import {
  assistantMessagesSince,
  createTodoReminder,
  isTodoReminder,
  todoReminderDue,
} from "../todos/reminder.ts";
import { TodoService } from "../todos/todoService.ts";
import { TodoStore } from "../todos/todoStore.ts";
import { readTool } from "../tools/read.ts";
import { ToolRegistry } from "../tools/registry.ts";
import { todoReadTool } from "../tools/todoRead.ts";
import { todoWriteTool } from "../tools/todoWrite.ts";
import { danglingCalls, hasOpenTurn, messageSize, toModelMessages } from "./conversation.ts";
import { SessionManager } from "./sessionManager.ts";
import { SessionProjection, SessionProjections } from "./sessionProjection.ts";

const plan = { permissionMode: "build", planEnabled: true } as const;
const build = { permissionMode: "build", planEnabled: false } as const;
const offered = ["Read", "TodoWrite"];

/** A varied log: plan periods, reminders, steering during open calls, a dangling call. */
function script(index: number): SessionEntry[] {
  const id = `c${index}`;
  const entries: SessionEntry[] = [
    { kind: "user.message", text: `  step ${index}\n of the   work ` },
    { kind: "turn.started" },
    { kind: "assistant.message", text: `looking ${index}` },
    {
      kind: "tool.call",
      callId: id,
      name: index % 4 === 0 ? "TodoWrite" : "Read",
      input: { n: index },
    },
    { kind: "tool.call", callId: `${id}b`, name: "Read", input: { path: "x".repeat(index % 7) } },
  ];
  if (index % 3 === 0) entries.push({ kind: "user.message", text: `steer ${index}` });
  entries.push({
    kind: "tool.result",
    callId: id,
    name: "Read",
    isError: false,
    output: "o".repeat(index),
  });
  if (index % 5 !== 0) {
    entries.push({
      kind: "tool.result",
      callId: `${id}b`,
      name: "Read",
      isError: false,
      output: "b",
    });
  }
  if (index % 6 === 0) {
    entries.push({ kind: "session.modeChanged", mode: index % 12 === 0 ? build : plan });
  }
  if (index % 4 === 1) {
    entries.push({
      kind: "user.message",
      text: "noted",
      synthetic: true,
      reminder: PLAN_MODE_REMINDER,
    });
  }
  if (index % 9 === 0) {
    entries.push({ kind: "user.message", text: "[Todo reminder] x", synthetic: true });
  }
  entries.push({ kind: "turn.ended", reason: "completed" });
  return entries;
}

describe("session projection (P6, T5): folded entry by entry, equal to a fresh load", () => {
  let dir: ReturnType<typeof tempDir>;
  let db: Database;
  let log: SessionLog;

  beforeEach(() => {
    dir = tempDir();
    db = openDatabase(join(dir.path, "plangate.db"));
    log = new SessionLog(db, new FakeClock());
  });
  afterEach(() => {
    db.close();
    dir.remove();
  });

  it("[Q8] holds a call still without a result by id and tool, not its input (issue 15)", () => {
    log.createSession({ id: "s", title: "", model: "m", mode: plan });
    const live = new SessionProjections(log).get("s");
    log.append("s", { kind: "turn.started" });
    log.append("s", { kind: "tool.call", callId: "a", name: "Read", input: { path: "a" } });
    expect(live.danglingCalls()).toEqual([{ callId: "a", name: "Read" }]);
  });

  it("[P6][T5] gives the same reminders, counts, calls and model context as a fresh load from the log, at every step", async () => {
    log.createSession({ id: "s", title: "", model: "m", mode: plan });
    const projections = new SessionProjections(log);
    const live = projections.get("s");
    for (let index = 0; index < 60; index++) {
      for (const entry of script(index)) {
        log.append("s", entry);
        const stored: StoredEntry[] = log.entriesAfter("s", 0);
        const fresh = SessionProjection.fromEntries(stored);
        expect(live.seq()).toBe(stored.length);
        for (const mode of [plan, build]) {
          expect(live.modeReminder(mode)).toEqual(nextModeReminder(stored, mode));
          expect(fresh.modeReminder(mode)).toEqual(nextModeReminder(stored, mode));
        }
        expect(live.assistantMessageCounts()).toEqual(assistantMessagesSince(stored));
        expect(live.danglingCalls()).toEqual(
          danglingCalls(stored).map(({ callId, name }) => ({ callId, name })),
        );
        expect(live.hasOpenTurn()).toBe(hasOpenTurn(stored));
        const messages = toModelMessages(stored);
        const conversation = live.weighedConversation();
        expect(conversation.messages).toEqual(messages);
        const sizes = messages.map(messageSize);
        expect(conversation.sizes).toEqual(sizes);
        expect(conversation.total).toBe(sizes.reduce((sum, size) => sum + size, 0));
        // The summary kept across calls says what a summary made from scratch says.
        const expected = await compactConversation(messages, { maxChars: 900 });
        const compacted = await compactWeighed(conversation, { maxChars: 900 }, live.summaries);
        expect(compacted).toEqual(expected);
      }
    }
    projections.dispose();
  });
});

describe("session projection across a restart (P6, T5)", () => {
  type Run = { requests: ModelMessage[][]; entries: SessionEntry[] };

  /**
   * Drives one session through `prompts` with a model that reads a file on every other reply;
   * `restartAfter` closes everything after that many prompts and opens it again on the same
   * database, as a server restart would.
   */
  async function drive(prompts: number, restartAfter?: number): Promise<Run> {
    const dir = tempDir();
    const workspace = realpathSync(dir.path);
    writeFileSync(join(workspace, "README.md"), "# Demo\n");
    const requests: ModelMessage[][] = [];
    let replies = 0;
    let db: Database | undefined;
    let log: SessionLog | undefined;
    let manager: SessionManager | undefined;
    const model: ModelProvider = {
      ref: "test/model",
      complete: async (request) => {
        requests.push(request.messages);
        // What a fresh load of the log would send, and no reminder still owed.
        const stored = log!.entriesAfter("s", 0);
        const fresh = await compactConversation(toModelMessages(stored), { maxChars: 2_000 });
        expect(request.messages).toEqual(fresh.messages);
        expect(nextModeReminder(stored, manager!.mode("s"))).toBeUndefined();
        const counts = assistantMessagesSince(stored);
        expect(todoReminderDue({ counts, toolNames: offered, continuation: false })).toBe(false);
        replies++;
        return replies % 2 === 1
          ? {
              text: `reply ${replies}`,
              toolCalls: [{ id: `call_${replies}`, name: "Read", input: { path: "README.md" } }],
              stopReason: "tool_use",
            }
          : { text: `reply ${replies}`, toolCalls: [], stopReason: "end" };
      },
    };
    const open = () => {
      db = openDatabase(join(dir.path, "plangate.db"));
      const clock = new FakeClock();
      log = new SessionLog(db, clock);
      const todos = new TodoService(new TodoStore(db, clock), log);
      manager = new SessionManager({
        log,
        interactions: createInteractionRegistry({
          append: (sessionId, entry) => log!.append(sessionId, entry),
          clock,
          settings: () => ({ autoContinue: false, theme: "system" }),
          timings: { graceMs: 1_000, deadlineMs: 5_000 },
          newId: () => randomId("int_"),
        }),
        tools: new ToolRegistry([readTool, todoWriteTool, todoReadTool]),
        providerFor: () => model,
        permissions: decidePermission,
        workspace,
        defaultModel: "test/model",
        defaultMode: "plan",
        newId: () => "s",
        compactAboveChars: 2_000,
        todoReminder: createTodoReminder(todos),
        contextFor: (sessionId) => ({ todos: todos.forSession(sessionId) }),
      });
      manager.start();
    };
    const close = async () => {
      await manager!.close();
      db!.close();
    };
    try {
      open();
      manager!.create();
      for (let index = 0; index < prompts; index++) {
        if (index === restartAfter) {
          await close();
          open();
        }
        if (index === 9) manager!.setMode("s", "build");
        manager!.prompt("s", `prompt ${index}: ${"words ".repeat(20)}`);
        await manager!.idle("s");
      }
      const entries = log!.entriesAfter("s", 0).map(({ entry }) => entry);
      return { requests, entries };
    } finally {
      await close();
      dir.remove();
    }
  }

  it("[P6][T5] a session restarted midway gives the model the same context and reminders as one that never restarted", async () => {
    const straight = await drive(14);
    const restarted = await drive(14, 4);
    expect(restarted.requests).toEqual(straight.requests);
    expect(restarted.entries).toEqual(straight.entries);
    // The reminders counted across the restart: P6's full reminder, a short one at the 6th
    // real message, the exit note after plan mode ends; T5's after 10 assistant messages.
    const reminders = straight.entries.flatMap((entry) =>
      entry.kind === "user.message" && entry.synthetic
        ? [entry.reminder ?? (isTodoReminder(entry) ? "todo" : "other")]
        : [],
    );
    expect(reminders).toEqual([
      PLAN_MODE_REMINDER,
      PLAN_MODE_REMINDER,
      "todo",
      PLAN_MODE_EXIT_REMINDER,
      "todo",
    ]);
  });
});
