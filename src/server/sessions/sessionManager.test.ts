import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Database } from "better-sqlite3";
import { z } from "zod";
import { DEFAULT_SETTINGS, type SessionEntry } from "../../protocol/index.ts";
import { FakeClock } from "../interactions/fakeClock.ts";
import type { InteractionRegistry } from "../interactions/port.ts";
import { createInteractionRegistry } from "../interactions/registry.ts";
import { colourQuestion } from "../interactions/registryHarness.ts";
import { ModelError, type ModelMessage, type ModelProvider } from "../models/provider.ts";
import { parseScenario } from "../models/scripted/scenario.ts";
import { ScriptedProvider } from "../models/scripted/scriptedProvider.ts";
import { decidePermission } from "../permissions/decide.ts";
import { openDatabase } from "../store/database.ts";
import { StorageError } from "../store/errors.ts";
import { randomId } from "../store/ids.ts";
import { SessionLog } from "../store/sessionLog.ts";
import { tempDir } from "../testing/helpers.ts";
import { waitForEntry } from "../testing/waitFor.ts";
import type { ToolContract, ToolResult } from "../tools/contract.ts";
import { defaultTools } from "../tools/defaultTools.ts";
import { ToolRegistry } from "../tools/registry.ts";
import { SessionManager, type SessionManagerDeps } from "./sessionManager.ts";

const askYaml = `
turns:
  - match: ask
    steps:
      - tools:
          - name: AskUserQuestion
            input:
              questions:
                - question: Which database should we use?
                  header: Database
                  multiSelect: false
                  options:
                    - { label: SQLite, description: small }
                    - { label: Postgres, description: big }
      - say: "You said: {{result}}"
  - match: slow
    steps:
      - say: one two three four five six seven eight nine ten eleven twelve
        delayMs: 200
  - steps:
      - say: Looking.
        tools:
          - { name: Read, input: { pathh: README.md } }
          - { name: Nope, input: {} }
      - tools:
          - { name: Read, input: { path: README.md } }
      - say: "Read: {{result}}"
`;

/** A tool that writes, so build mode asks permission before it runs. */
function writingTool(name: string): ToolContract<{ text: string }> {
  return {
    name,
    description: "writes",
    inputSchema: z.strictObject({ text: z.string() }),
    readOnly: false,
    destructive: true,
    summarize: (input) => `write ${input.text}`,
    run: async (input) => ({ output: `wrote ${input.text}` }),
  };
}

/** X1: an agent's call, as a promise of its recorded result. */
function runExternalCall(
  manager: SessionManager,
  sessionId: string,
  call: { callId: string; name: string; input: unknown },
  tools: ToolRegistry,
  signal: AbortSignal,
): Promise<ToolResult> {
  return new Promise((resolve, reject) => {
    manager.runExternalCallTo(sessionId, call, tools, signal, { ended: resolve, failed: reject });
  });
}

describe("session manager and turn loop", () => {
  let dir: ReturnType<typeof tempDir>;
  let workspace: string;
  let dbPath: string;
  let db: Database;
  let log: SessionLog;
  let clock: FakeClock;
  let registry: InteractionRegistry;
  let manager: SessionManager;

  const open = (provider: ModelProvider, extra: Partial<SessionManagerDeps> = {}) => {
    db = openDatabase(dbPath);
    log = new SessionLog(db, clock);
    registry = createInteractionRegistry({
      append: (sessionId, entry) => log.append(sessionId, entry),
      clock,
      settings: () => DEFAULT_SETTINGS,
      timings: { graceMs: 1_000, deadlineMs: 5_000 },
      newId: () => randomId("int_"),
    });
    manager = new SessionManager({
      log,
      interactions: registry,
      tools: new ToolRegistry(extra.tools ? extra.tools.list() : defaultTools()),
      providerFor: () => provider,
      permissions: decidePermission,
      workspace,
      defaultModel: "scripted/test",
      defaultMode: "build",
      ...extra,
    });
    manager.start();
  };
  const scripted = (yaml = askYaml) =>
    new ScriptedProvider("scripted/test", parseScenario(yaml, "t.yaml"));
  const entries = (sessionId: string): SessionEntry[] =>
    log.entriesAfter(sessionId, 0).map((stored) => stored.entry);
  const kinds = (sessionId: string) => entries(sessionId).map((entry) => entry.kind);

  beforeEach(() => {
    dir = tempDir();
    workspace = join(realpathSync(dir.path), "ws");
    mkdirSync(workspace);
    writeFileSync(join(workspace, "README.md"), "# Demo readme\n");
    dbPath = join(dir.path, "db", "plangate.db");
    clock = new FakeClock();
  });
  afterEach(async () => {
    await manager.close();
    db.close();
    dir.remove();
  });

  it("[S2][Q8] a stop for a turn that runs on another server is sent there before this server aborts its question", async () => {
    const pendingWhenSent: number[] = [];
    open(scripted(), {
      cancelElsewhere: (sessionId) => pendingWhenSent.push(registry.pending(sessionId).length),
    });
    const { id } = manager.create({ title: "shared" });
    // Asked by a turn this server does not run: no local turn, one question pending.
    void registry
      .askQuestions(
        id,
        {
          toolName: "AskUserQuestion",
          toolCallId: "c1",
          questions: [colourQuestion],
        },
        new AbortController().signal,
      )
      .catch(() => undefined);
    expect(registry.pending(id)).toHaveLength(1);

    expect(manager.cancelTurn(id)).toBe(false);
    expect(pendingWhenSent).toEqual([1]);
    expect(registry.pending(id)).toEqual([]);
  });

  it("[M1] plays a scripted turn with tools; invalid input becomes an error result and the loop goes on", async () => {
    open(scripted());
    const { id } = manager.create({ title: "demo" });
    manager.prompt(id, "read the readme please");
    await manager.idle(id);
    expect(kinds(id)).toEqual([
      "session.created",
      "user.message",
      "turn.started",
      "assistant.message",
      "tool.call",
      "tool.call",
      "tool.result",
      "tool.result",
      "tool.call",
      "tool.result",
      "assistant.message",
      "turn.ended",
    ]);
    const results = entries(id).filter((e) => e.kind === "tool.result");
    expect(results[0]).toMatchObject({ isError: true, name: "Read" });
    expect(results[0]!.kind === "tool.result" && results[0]!.output).toMatch(/pathh|path/);
    expect(results[1]).toMatchObject({
      isError: true,
      output: expect.stringMatching(/no tool named "Nope"/),
    });
    expect(results[2]).toMatchObject({ isError: false, output: "1\t# Demo readme\n" });
    expect(entries(id).at(-2)).toEqual({
      kind: "assistant.message",
      text: "Read: 1\t# Demo readme\n",
    });
    expect(entries(id).at(-1)).toEqual({ kind: "turn.ended", reason: "completed" });
  });

  it("names every bad field of an invalid input", async () => {
    open(scripted());
    const { id } = manager.create();
    manager.prompt(id, "x");
    await manager.idle(id);
    const first = entries(id).find((e) => e.kind === "tool.result");
    expect(first?.kind === "tool.result" && first.output).toMatch(
      /- path: .*\n- \(input\): .*pathh/s,
    );
  });

  it("asks the user through the interaction registry and passes the answer to the model", async () => {
    open(scripted());
    const { id } = manager.create();
    manager.prompt(id, "please ask me");
    const requested = await waitForEntry(log, id, "interaction.requested");
    const receipt = registry.answer(requested.entry.request.interactionId, {
      "Which database should we use?": { labels: ["SQLite"] },
    });
    expect(receipt).toEqual({ ok: true });
    await manager.idle(id);
    const last = entries(id)
      .filter((e) => e.kind === "assistant.message")
      .at(-1);
    expect(last?.kind === "assistant.message" && last.text).toMatch(/^You said: .*SQLite/s);
    expect(entries(id).at(-1)).toMatchObject({ kind: "turn.ended", reason: "completed" });
  });

  it("[Q8] cancelling a turn aborts its question, records the result and ends the turn", async () => {
    open(scripted());
    const { id } = manager.create();
    manager.prompt(id, "ask");
    await waitForEntry(log, id, "interaction.requested");
    expect(manager.cancelTurn(id)).toBe(true);
    await manager.idle(id);
    const tail = entries(id).slice(-3);
    expect(tail[0]).toMatchObject({ kind: "interaction.resolved", outcome: { type: "aborted" } });
    expect(tail[1]).toMatchObject({ kind: "tool.result", name: "AskUserQuestion" });
    expect(tail[1]?.kind === "tool.result" && tail[1].output).not.toMatch(/produced no result/);
    expect(tail[2]).toEqual({ kind: "turn.ended", reason: "cancelled" });
    expect(registry.pendingCount(id)).toBe(0);
    expect(manager.cancelTurn(id)).toBe(false);
  });

  it("[W1] cancels a streaming model call, keeping the text the person already read", async () => {
    const deltas: string[] = [];
    open(scripted(), { onDelta: (_id, text) => deltas.push(text) });
    const { id } = manager.create();
    manager.prompt(id, "slow");
    await vi.waitFor(() => expect(deltas.length).toBeGreaterThan(0));
    manager.cancelTurn(id);
    await manager.idle(id);
    expect(kinds(id).slice(-3)).toEqual(["turn.started", "assistant.message", "turn.ended"]);
    const kept = entries(id).at(-2);
    expect(kept?.kind === "assistant.message" && kept.text).toBe(deltas.join(""));
    expect(entries(id).at(-1)).toEqual({ kind: "turn.ended", reason: "cancelled" });
  });

  it("[W1][M1] a reply that fails midway keeps its streamed text above the error", async () => {
    open(
      {
        ref: "test/cut",
        async complete(request) {
          request.onText?.("Here is the first half");
          request.onText?.(" of my answer");
          throw new ModelError("network", {
            code: "model.connectionLost",
            params: { endpoint: "api.example.com" },
          });
        },
      },
      { onDelta: () => {} },
    );
    const { id } = manager.create();
    manager.prompt(id, "hello");
    await manager.idle(id);
    expect(kinds(id).slice(-4)).toEqual([
      "turn.started",
      "assistant.message",
      "notice",
      "turn.ended",
    ]);
    expect(entries(id).at(-3)).toEqual({
      kind: "assistant.message",
      text: "Here is the first half of my answer",
    });
    expect(entries(id).at(-1)).toMatchObject({ kind: "turn.ended", reason: "error" });
  });

  it("steers a message sent during a turn into the next model call", async () => {
    const seen: string[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const provider: ModelProvider = {
      ref: "test/steer",
      async complete(request) {
        seen.push(request.messages.filter((m) => m.role === "user").map((m) => m.content));
        if (seen.length === 1) await gate;
        return { text: `reply ${seen.length}`, toolCalls: [], stopReason: "end" };
      },
    };
    open(provider);
    const { id } = manager.create();
    manager.prompt(id, "first");
    await vi.waitFor(() => expect(seen).toHaveLength(1));
    manager.prompt(id, "second");
    expect(kinds(id).filter((k) => k === "turn.started")).toHaveLength(1);
    release();
    await manager.idle(id);
    expect(seen).toEqual([["first"], ["first", "second"]]);
    expect(kinds(id).filter((k) => k === "turn.ended")).toHaveLength(1);
  });

  it("[W2] ends the turn with a coded notice when the model fails, losing nothing", async () => {
    const notice = {
      code: "model.contextTooLong",
      params: { endpoint: "api.example.com", detail: "HTTP 400", serverSaid: "Prompt is too long" },
    } as const;
    const english =
      "api.example.com refused the request because the conversation is too long for the model's context window. Start a new session, or pick a model with a larger context. (HTTP 400) The model server said: “Prompt is too long”";
    open({
      ref: "test/broken",
      complete: async () => {
        throw new ModelError("too_long", notice);
      },
    });
    const { id } = manager.create();
    manager.prompt(id, "hello");
    await manager.idle(id);
    expect(entries(id).slice(1)).toEqual([
      { kind: "user.message", text: "hello" },
      { kind: "turn.started" },
      { kind: "notice", level: "error", text: english, ...notice },
      { kind: "turn.ended", reason: "error", message: english, ...notice },
    ]);
  });

  it("[M1] a model that repeats a call id (in one reply, then in a later turn) gets each call its own id and result", async () => {
    const requests: ModelMessage[][] = [];
    const glob = { id: "call_0", name: "Glob", input: { pattern: "*" } };
    open({
      ref: "test/repeats",
      async complete(request) {
        requests.push(request.messages);
        if (request.messages.at(-1)?.role === "user") {
          return { text: "", toolCalls: [glob, glob], stopReason: "tool_use" };
        }
        return { text: "done", toolCalls: [], stopReason: "end" };
      },
    });
    const { id } = manager.create();
    manager.prompt(id, "first");
    await manager.idle(id);
    manager.prompt(id, "second");
    await manager.idle(id);
    const callIds = entries(id).flatMap((e) => (e.kind === "tool.call" ? [e.callId] : []));
    const resultIds = entries(id).flatMap((e) => (e.kind === "tool.result" ? [e.callId] : []));
    expect(callIds).toEqual(["call_0", "call_0_2", "call_0_3", "call_0_4"]);
    expect(resultIds).toEqual(callIds);
    const lastRequest = requests.at(-1) ?? [];
    const sentIds = lastRequest.flatMap((m) => (m.role === "tool" ? [m.toolCallId] : []));
    expect(sentIds).toEqual(callIds);
  });

  it("[W2][M1] a notice the provider sends while it works (a retry) is stored in the turn by code", async () => {
    open({
      ref: "test/busy",
      complete: async (request) => {
        request.onNotice?.({
          code: "model.retryRateLimited",
          params: { endpoint: "api.example", seconds: "2", detail: "HTTP 429" },
        });
        return { text: "Done.", toolCalls: [], stopReason: "end" };
      },
    });
    const { id } = manager.create();
    manager.prompt(id, "hello");
    await manager.idle(id);
    expect(entries(id).slice(3)).toEqual([
      {
        kind: "notice",
        level: "info",
        text: "api.example is rate limiting requests; trying again in 2 s. (HTTP 429)",
        code: "model.retryRateLimited",
        params: { endpoint: "api.example", seconds: "2", detail: "HTTP 429" },
      },
      { kind: "assistant.message", text: "Done." },
      { kind: "turn.ended", reason: "completed" },
    ]);
  });

  it("stops a turn that never finishes after the model-call limit", async () => {
    let n = 0;
    open(
      {
        ref: "test/loop",
        complete: async () => ({
          text: "",
          toolCalls: [{ id: `c${n++}`, name: "Glob", input: { pattern: "*" } }],
          stopReason: "tool_use",
        }),
      },
      { maxModelCalls: 3 },
    );
    const { id } = manager.create();
    manager.prompt(id, "go");
    await manager.idle(id);
    expect(kinds(id).filter((k) => k === "tool.call")).toHaveLength(3);
    expect(entries(id).at(-1)).toMatchObject({
      kind: "turn.ended",
      reason: "error",
      code: "turn.tooManyModelCalls",
      params: { calls: "3" },
    });
  });

  it("[Q8][X1] a call waiting on the user puts one abort listener on its signal, the registry's, and its abort still ends it at once", async () => {
    // Issue 15: thousands of agents' calls wait at once; a second watcher per call was ≈0.6 KB.
    const write = writingTool("Scribble");
    const tools = new ToolRegistry([...defaultTools(), write]);
    open(scripted(), { tools });
    const { id } = manager.create({ title: "agent" });
    const watched = (controller: AbortController) => {
      const listening = new Set<unknown>();
      const signal = controller.signal;
      const add = signal.addEventListener.bind(signal);
      const remove = signal.removeEventListener.bind(signal);
      signal.addEventListener = (type: string, listener: EventListenerOrEventListenerObject) => {
        listening.add(listener);
        add(type, listener);
      };
      signal.removeEventListener = (type: string, listener: EventListenerOrEventListenerObject) => {
        listening.delete(listener);
        remove(type, listener);
      };
      return listening;
    };
    const calls = [
      { callId: "q1", name: "AskUserQuestion", input: { questions: [colourQuestion] } },
      { callId: "w1", name: "Scribble", input: { text: "a" } },
    ];
    for (const call of calls) {
      const controller = new AbortController();
      const listening = watched(controller);
      const result = runExternalCall(manager, id, call, tools, controller.signal);
      await waitForEntry(
        log,
        id,
        "interaction.requested",
        (e) => e.request.toolCallId === call.callId,
      );
      expect(listening.size).toBe(1);
      controller.abort("the agent withdrew the call");
      // No grace period to sit out: the clock does not move and the call still ends.
      expect((await result).output).toMatch(/the agent withdrew the call/);
    }
    expect(registry.pendingCount(id)).toBe(0);
  });

  it("[X1][R3][Q5] an agent's answered question whose result the log refuses fails the call with that refusal, and leaves nothing waiting", async () => {
    open(scripted());
    const { id } = manager.create({ title: "agent" });
    const refusal = new StorageError("Could not record entry: disk full", "SQLITE_FULL");
    const append = log.append.bind(log);
    log.append = (sessionId, entry) => {
      if (entry.kind === "tool.result") throw refusal;
      return append(sessionId, entry);
    };
    const call = { callId: "q1", name: "AskUserQuestion", input: { questions: [colourQuestion] } };
    const tools = new ToolRegistry(defaultTools());
    const result = runExternalCall(manager, id, call, tools, new AbortController().signal);
    const asked = await waitForEntry(log, id, "interaction.requested");
    expect(
      registry.answer(asked.entry.request.interactionId, {
        [colourQuestion.question]: { labels: ["Red"] },
      }).ok,
    ).toBe(true);
    await expect(result).rejects.toBe(refusal);
    expect(registry.pendingCount(id)).toBe(0);
    expect(kinds(id)).not.toContain("tool.result");
  });

  it("[X1][R3] an agent's call that fails before its tool runs says why in words, the store's failure without the driver's", async () => {
    const write = writingTool("Scribble");
    const tools = new ToolRegistry([...defaultTools(), write]);
    open(scripted(), { tools });
    const { id } = manager.create({ title: "agent" });
    const failures = [
      new StorageError("Could not record entry in /srv/plangate.db: disk I/O error", "SQLITE_FULL"),
      new Error("the card could not be shown"),
    ];
    const outputs: string[] = [];
    for (const [index, failure] of failures.entries()) {
      registry.askPermission = () => Promise.reject(failure);
      const call = { callId: `w${index}`, name: "Scribble", input: { text: "a" } };
      const result = await runExternalCall(manager, id, call, tools, new AbortController().signal);
      expect(result.isError).toBe(true);
      outputs.push(result.output);
    }
    expect(outputs[0]).toMatch(/^Scribble produced no result: plangate could not save the call/);
    expect(outputs[0]).not.toMatch(/SQLITE|I\/O|\.db/);
    expect(outputs[1]).toBe("Scribble produced no result: the card could not be shown.");
  });

  it("asks permission for a writing tool and honours allow and deny", async () => {
    const write = writingTool("Write");
    open(
      scripted(
        `turns:\n  - steps:\n      - tools: [{ name: Write, input: { text: a } }, { name: Write, input: { text: b } }]\n      - say: done\n`,
      ),
      { tools: new ToolRegistry([write]) },
    );
    const { id } = manager.create();
    manager.prompt(id, "write");
    const first = await waitForEntry(log, id, "interaction.requested");
    expect(first.entry.request).toMatchObject({ kind: "permission", summary: "write a" });
    registry.decide(first.entry.request.interactionId, "allow_once");
    const second = await waitForEntry(
      log,
      id,
      "interaction.requested",
      (e) => e.request.interactionId !== first.entry.request.interactionId,
    );
    registry.decide(second.entry.request.interactionId, "deny");
    await manager.idle(id);
    const results = entries(id).filter((e) => e.kind === "tool.result");
    expect(results[0]).toMatchObject({ isError: false, output: "wrote a" });
    expect(results[1]).toMatchObject({ isError: true, output: expect.stringMatching(/denied/) });
  });

  it("ends the turn right after a result that says so, skipping later calls", async () => {
    const stop: ToolContract<unknown> = {
      name: "Stop",
      description: "stops",
      inputSchema: z.unknown(),
      readOnly: true,
      destructive: false,
      run: async () => ({ output: "stopped", endTurn: true }),
    };
    open(
      scripted(
        `turns:\n  - steps:\n      - tools: [{ name: Stop }, { name: Stop }]\n      - say: never\n`,
      ),
      {
        tools: new ToolRegistry([stop]),
      },
    );
    const { id } = manager.create();
    manager.prompt(id, "go");
    await manager.idle(id);
    expect(entries(id).slice(-3)).toEqual([
      { kind: "tool.result", callId: "call_1_0", name: "Stop", isError: false, output: "stopped" },
      expect.objectContaining({ kind: "tool.result", callId: "call_1_1", isError: true }),
      { kind: "turn.ended", reason: "completed" },
    ]);
  });

  it("switches modes per P1 and records each change once", () => {
    open(scripted());
    const { id } = manager.create({ mode: "edit" });
    expect(manager.setMode(id, "plan")).toEqual({ permissionMode: "edit", planEnabled: true });
    expect(manager.setMode(id, "plan")).toEqual({ permissionMode: "edit", planEnabled: true });
    expect(manager.setMode(id, "yolo")).toEqual({ permissionMode: "yolo", planEnabled: false });
    expect(kinds(id).filter((k) => k === "session.modeChanged")).toHaveLength(2);
    expect(manager.summaries()[0]).toMatchObject({
      id,
      mode: { permissionMode: "yolo" },
      pendingInteractions: 0,
    });
  });

  it("[Q7] questions of one reply are asked together, so they queue; results keep call order", async () => {
    const question = (text: string, header: string) =>
      `{ question: "${text}", header: ${header}, multiSelect: false, options: [{ label: Yes }, { label: No }] }`;
    open(
      scripted(`turns:
  - steps:
      - tools:
          - { name: AskUserQuestion, input: { questions: [${question("First?", "One")}] } }
          - { name: AskUserQuestion, input: { questions: [${question("Second?", "Two")}] } }
      - say: "Got: {{result}}"
`),
    );
    const { id } = manager.create();
    manager.prompt(id, "two questions");
    const asked = (text: string) =>
      waitForEntry(
        log,
        id,
        "interaction.requested",
        (entry) =>
          entry.request.kind === "question" && entry.request.questions[0]?.question === text,
      );
    const first = await asked("First?");
    const second = await asked("Second?");
    expect(registry.pendingCount(id)).toBe(2);
    expect(kinds(id).filter((kind) => kind === "tool.result")).toEqual([]);

    expect(
      registry.answer(first.entry.request.interactionId, { "First?": { labels: ["Yes"] } }),
    ).toEqual({ ok: true });
    await waitForEntry(log, id, "tool.result");
    expect(registry.pendingCount(id)).toBe(1);
    expect(
      registry.answer(second.entry.request.interactionId, { "Second?": { labels: ["No"] } }),
    ).toEqual({ ok: true });
    await manager.idle(id);

    const results = entries(id).filter((entry) => entry.kind === "tool.result");
    expect(results.map((entry) => entry.kind === "tool.result" && entry.callId)).toEqual([
      "call_1_0",
      "call_1_1",
    ]);
    const last = entries(id)
      .filter((e) => e.kind === "assistant.message")
      .at(-1);
    expect(last?.kind === "assistant.message" && last.text).toMatch(
      /First\?\n.*Yes.*Second\?\n.*No/s,
    );
  });

  it("[Q7] a call that ends the turn withdraws the questions asked after it", async () => {
    const stop: ToolContract<unknown> = {
      name: "Stop",
      description: "waits for the user, then ends the turn",
      inputSchema: z.unknown(),
      readOnly: true,
      destructive: false,
      requiresUserInteraction: true,
      run: async () => ({ output: "stopped", endTurn: true }),
    };
    open(
      scripted(`turns:
  - steps:
      - tools:
          - { name: Stop }
          - name: AskUserQuestion
            input:
              questions:
                - { question: "Later?", header: Later, multiSelect: false, options: [{ label: Yes }, { label: No }] }
      - say: never
`),
      { tools: new ToolRegistry([stop, ...defaultTools()]) },
    );
    const { id } = manager.create();
    manager.prompt(id, "go");
    await manager.idle(id);
    expect(registry.pendingCount(id)).toBe(0);
    expect(kinds(id).indexOf("interaction.requested")).toBeLessThan(
      kinds(id).indexOf("tool.result"),
    );
    expect(entries(id).slice(-4)).toEqual([
      { kind: "tool.result", callId: "call_1_0", name: "Stop", isError: false, output: "stopped" },
      expect.objectContaining({
        kind: "interaction.resolved",
        outcome: { type: "aborted", reason: "the turn ended first" },
      }),
      expect.objectContaining({ kind: "tool.result", callId: "call_1_1", isError: true }),
      { kind: "turn.ended", reason: "completed" },
    ]);
  });

  it("[A7] resumes an open turn after a restart: the pending question is adopted and the turn completes", async () => {
    open(scripted());
    const { id } = manager.create();
    manager.prompt(id, "ask");
    const requested = await waitForEntry(log, id, "interaction.requested");
    const before = log.entriesAfter(id, 0);
    await manager.close();
    db.close();

    open(scripted());
    expect(log.entriesAfter(id, 0)).toEqual(before);
    expect(registry.pendingCount(id)).toBe(1);
    expect(manager.isRunning(id)).toBe(true);
    expect(
      registry.answer(requested.entry.request.interactionId, {
        "Which database should we use?": { labels: ["Postgres"] },
      }),
    ).toEqual({ ok: true });
    await manager.idle(id);
    expect(kinds(id).filter((k) => k === "interaction.requested")).toHaveLength(1);
    const last = entries(id)
      .filter((e) => e.kind === "assistant.message")
      .at(-1);
    expect(last?.kind === "assistant.message" && last.text).toMatch(/Postgres/);
    expect(entries(id).at(-1)).toMatchObject({ kind: "turn.ended", reason: "completed" });
  });

  it("re-runs a tool call that has no result after a restart, then continues the loop", async () => {
    open(scripted());
    const { id } = manager.create();
    log.append(id, { kind: "user.message", text: "read it" });
    log.append(id, { kind: "turn.started" });
    log.append(id, { kind: "assistant.message", text: "Looking." });
    log.append(id, {
      kind: "tool.call",
      callId: "call_1_0",
      name: "Read",
      input: { path: "README.md" },
    });
    await manager.close();
    db.close();

    open(scripted());
    await manager.idle(id);
    const after = entries(id).slice(5);
    expect(after[0]).toMatchObject({ kind: "tool.result", callId: "call_1_0", isError: false });
    expect(after.at(-1)).toEqual({ kind: "turn.ended", reason: "completed" });
  });
});
