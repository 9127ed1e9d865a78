import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Database } from "better-sqlite3";
import { DEFAULT_SETTINGS, type SessionEntry } from "../../protocol/index.ts";
import { FakeClock } from "../interactions/fakeClock.ts";
import type { InteractionRegistry } from "../interactions/port.ts";
import { createInteractionRegistry } from "../interactions/registry.ts";
import { planReviewDismissedText } from "../interactions/resultText.ts";
import type { ModelProvider, ModelRequest } from "../models/provider.ts";
import { parseScenario } from "../models/scripted/scenario.ts";
import { ScriptedProvider } from "../models/scripted/scriptedProvider.ts";
import { PermissionService } from "../permissions/service.ts";
import { SessionManager, type SessionManagerDeps } from "../sessions/sessionManager.ts";
import { openDatabase } from "../store/database.ts";
import { StorageError } from "../store/errors.ts";
import { randomId } from "../store/ids.ts";
import { SessionLog } from "../store/sessionLog.ts";
import { tempDir } from "../testing/helpers.ts";
import { waitForEntry } from "../testing/waitFor.ts";
import { defaultTools } from "../tools/defaultTools.ts";
import { planReviewQuestion } from "../tools/exitPlanMode.ts";
import { ToolRegistry } from "../tools/registry.ts";
import { planFilePath } from "./planFile.ts";
import { planContentHash } from "./planHash.ts";
import { planModeExitedReminder, planModeReminderFull } from "./planTexts.ts";

const PLAN = "# Plan: cache the store\n\n1. Wrap `load()`\n2. Add a test\n";
const REVISED = "# Plan: cache the store in Redis\n\n1. Add a Redis client\n";

const scenario = `
turns:
  - match: redis
    steps:
      - tools:
          - name: ExitPlanMode
            input: { plan: ${JSON.stringify(REVISED)} }
      - say: Revised and approved.
  - match: enter
    steps:
      - tools: [{ name: EnterPlanMode }]
      - tools: [{ name: Write, input: { path: blocked.md, content: "no" } }]
      - say: Planning.
  - match: write twice
    steps:
      - tools: [{ name: Write, input: { path: notes/a.md, content: "one" } }]
      - tools: [{ name: Write, input: { path: notes/a.md, content: "two" } }]
      - say: Both written.
  - steps:
      - tools: [{ name: Read, input: { path: README.md } }]
      - tools:
          - name: ExitPlanMode
            input: { plan: ${JSON.stringify(PLAN)} }
      - say: Carrying out the plan.
`;

describe("plan mode through the session manager (real log, registry and tools)", () => {
  let dir: ReturnType<typeof tempDir>;
  let workspace: string;
  let dbPath: string;
  let db: Database;
  let log: SessionLog;
  let registry: InteractionRegistry;
  let manager: SessionManager;
  let requests: ModelRequest[];

  const open = (extra: Partial<SessionManagerDeps> = {}, provider?: ModelProvider) => {
    db = openDatabase(dbPath);
    const clock = new FakeClock();
    log = new SessionLog(db, clock);
    registry = createInteractionRegistry({
      append: (sessionId, entry) => log.append(sessionId, entry),
      clock,
      settings: () => DEFAULT_SETTINGS,
      timings: { graceMs: 1_000, deadlineMs: 5_000 },
      newId: () => randomId("int_"),
    });
    const scripted =
      provider ?? new ScriptedProvider("scripted/t", parseScenario(scenario, "t.yaml"));
    const permissions = new PermissionService({ workspace });
    manager = new SessionManager({
      log,
      interactions: registry,
      tools: new ToolRegistry(defaultTools()),
      providerFor: () => ({
        ref: scripted.ref,
        complete: (request) => {
          requests.push(request);
          return scripted.complete(request);
        },
      }),
      permissions: permissions.check,
      rememberAllow: (tool, input) => permissions.allowAlways(tool, input),
      workspace,
      defaultModel: "scripted/t",
      defaultMode: "build",
      ...extra,
    });
    manager.start();
  };
  const entries = (id: string): SessionEntry[] => log.entriesAfter(id, 0).map((s) => s.entry);
  const results = (id: string) => entries(id).filter((e) => e.kind === "tool.result");
  const reviewOf = async (id: string, nth = 0) => {
    const requested = await waitForEntry(
      log,
      id,
      "interaction.requested",
      (e) => e.request.toolName === "ExitPlanMode" && nth-- === 0,
    );
    const request = requested.entry.request;
    if (request.kind !== "question") throw new Error("a plan review is a question");
    return request;
  };
  const answer = (interactionId: string, labels: string[], other?: string) =>
    registry.answer(interactionId, {
      "Review this implementation plan": other === undefined ? { labels } : { labels, other },
    });
  const lastUserTexts = (request: ModelRequest) =>
    request.messages.filter((m) => m.role === "user").map((m) => m.content);

  beforeEach(() => {
    dir = tempDir();
    workspace = join(realpathSync(dir.path), "ws");
    mkdirSync(workspace);
    writeFileSync(join(workspace, "README.md"), "# Demo\n");
    dbPath = join(dir.path, "db", "plangate.db");
    requests = [];
  });
  afterEach(async () => {
    await manager.close();
    db.close();
    dir.remove();
  });

  it("[P8][P6] approve: plan file with the exact plan, back to the mode from before, plan.approved, then a one-time exit note", async () => {
    open();
    const { id } = manager.create({ mode: "edit" });
    manager.setMode(id, "plan");
    manager.prompt(id, "plan a cache");
    const review = await reviewOf(id);
    expect(review).toMatchObject({
      kind: "question",
      questions: [{ detail: PLAN, intent: { kind: "plan-review", approve: "Approve" } }],
    });
    expect(manager.mode(id)).toEqual({ permissionMode: "edit", planEnabled: true });
    expect(answer(review.interactionId, ["Approve"])).toEqual({ ok: true });
    await manager.idle(id);

    expect(readFileSync(planFilePath(workspace, id), "utf8")).toBe(PLAN);
    expect(manager.mode(id)).toEqual({ permissionMode: "edit", planEnabled: false });
    expect(log.requireSession(id).mode).toEqual({ permissionMode: "edit", planEnabled: false });
    const approved = entries(id).find((e) => e.kind === "plan.approved");
    expect(approved).toEqual({
      kind: "plan.approved",
      plan: PLAN,
      path: join(".zcode", "plans", `plan-${id}.md`),
    });
    const exit = results(id).find((e) => e.name === "ExitPlanMode");
    expect(exit?.output).toContain(`## Approved Plan:\n${PLAN}`);

    // P6: the first request of the plan period carried the full reminder, the one after approval the exit note.
    expect(requests).toHaveLength(3);
    expect(lastUserTexts(requests[0]!)).toEqual(["plan a cache", planModeReminderFull()]);
    expect(lastUserTexts(requests[1]!)).toEqual(["plan a cache", planModeReminderFull()]);
    expect(lastUserTexts(requests[2]!).at(-1)).toBe(planModeExitedReminder());
    expect(entries(id).at(-1)).toEqual({ kind: "turn.ended", reason: "completed" });
  });

  const approveWith = (
    review: { interactionId: string; planRevision?: { contentHash?: string } },
    option: "default" | "edit" | "build" | "fresh",
    note?: string,
    planHash = review.planRevision?.contentHash,
  ) =>
    registry.answer(review.interactionId, {
      "Review this implementation plan": {
        labels: ["Approve"],
        ...(note === undefined ? {} : { other: note }),
        review: { option, ...(planHash === undefined ? {} : { planHash }) },
      },
    });

  it("[V4][V5] approve with a note and 'accept edits automatically': the model gets the note, the session is in edit mode, the note sits under the plan in the file", async () => {
    open();
    const { id } = manager.create({ mode: "build" });
    manager.setMode(id, "plan");
    manager.prompt(id, "plan a cache");
    const review = await reviewOf(id);
    expect(approveWith(review, "edit", "Keep the old loader as a fallback")).toEqual({ ok: true });
    await manager.idle(id);

    expect(manager.mode(id)).toEqual({ permissionMode: "edit", planEnabled: false });
    const exit = results(id).find((e) => e.name === "ExitPlanMode");
    expect(exit?.output).toContain("Keep the old loader as a fallback");
    expect(exit?.output).toContain("edit mode");
    const sent = requests
      .at(-1)!
      .messages.find((m) => m.role === "tool" && m.name === "ExitPlanMode");
    expect(sent?.content).toContain("Keep the old loader as a fallback");
    const file = readFileSync(planFilePath(workspace, id), "utf8");
    expect(file.startsWith(PLAN.trimEnd())).toBe(true);
    expect(file).toMatch(
      /## Notes given with the approval\n\nKeep the old loader as a fallback\n$/,
    );
  });

  it("[V5] 'ask before each edit' leaves plan mode in build mode, whatever was under it", async () => {
    open();
    const { id } = manager.create({ mode: "edit" });
    manager.setMode(id, "plan");
    manager.prompt(id, "plan a cache");
    const review = await reviewOf(id);
    expect(approveWith(review, "build")).toEqual({ ok: true });
    await manager.idle(id);
    expect(manager.mode(id)).toEqual({ permissionMode: "build", planEnabled: false });
    expect(readFileSync(planFilePath(workspace, id), "utf8")).toBe(PLAN);
  });

  it("[V5] 'fresh context' compacts what came before the approval and re-injects the plan file", async () => {
    open();
    const { id } = manager.create({ mode: "edit" });
    manager.setMode(id, "plan");
    manager.prompt(id, "plan a cache");
    const review = await reviewOf(id);
    expect(approveWith(review, "fresh")).toEqual({ ok: true });
    await manager.idle(id);

    expect(manager.mode(id)).toEqual({ permissionMode: "edit", planEnabled: false });
    expect(entries(id).find((e) => e.kind === "plan.approved")).toMatchObject({ fresh: true });
    const after = requests.at(-1)!.messages;
    expect(after[0]).toMatchObject({ role: "user" });
    expect(after[0]!.content).toMatch(/was compacted/);
    expect(after[1]!.content).toContain(PLAN.trim());
    // The user's first words and the Read before the plan are summarised, not replayed.
    expect(after.some((m) => m.content === "plan a cache")).toBe(false);
    expect(after.some((m) => m.role === "tool" && m.name === "Read")).toBe(false);
    expect(after.some((m) => m.role === "tool" && m.name === "ExitPlanMode")).toBe(true);
  });

  it("[V6] an edited plan is what is approved and saved, and the model is told with a diff", async () => {
    open();
    const { id } = manager.create({ mode: "build" });
    manager.setMode(id, "plan");
    manager.prompt(id, "plan a cache");
    const review = await reviewOf(id);
    const EDITED = PLAN.replace("2. Add a test", "2. Add a property test");
    expect(
      registry.answer(review.interactionId, {
        "Review this implementation plan": {
          labels: ["Approve"],
          review: { option: "default", editedPlan: EDITED },
        },
      }),
    ).toEqual({ ok: true });
    await manager.idle(id);
    expect(readFileSync(planFilePath(workspace, id), "utf8")).toBe(EDITED);
    expect(entries(id).find((e) => e.kind === "plan.approved")).toMatchObject({ plan: EDITED });
    const exit = results(id).find((e) => e.name === "ExitPlanMode");
    expect(exit?.output).toContain("-2. Add a test\n+2. Add a property test");
    expect(exit?.output).toContain(`## Approved Plan:\n${EDITED}`);
  });

  it("[V8] an approval naming another revision's hash is rejected with a receipt and changes nothing", async () => {
    open();
    const { id } = manager.create({ mode: "build" });
    manager.setMode(id, "plan");
    manager.prompt(id, "plan a cache");
    const review = await reviewOf(id);
    expect(review.planRevision?.contentHash).toBe(planContentHash(PLAN));
    const stale = approveWith(review, "edit", undefined, planContentHash(REVISED));
    expect(stale).toMatchObject({ ok: false, code: "PLAN_CHANGED" });
    expect(manager.mode(id)).toEqual({ permissionMode: "build", planEnabled: true });
    expect(existsSync(planFilePath(workspace, id))).toBe(false);
    expect(entries(id).some((e) => e.kind === "interaction.resolved")).toBe(false);
    // The review still waits; the current hash goes through.
    expect(approveWith(review, "edit")).toEqual({ ok: true });
    await manager.idle(id);
    expect(manager.mode(id)).toEqual({ permissionMode: "edit", planEnabled: false });
  });

  it("[P9] refuse with feedback: the feedback is a real user message in the same turn, plan stays on, the model revises", async () => {
    open();
    const { id } = manager.create();
    manager.setMode(id, "plan");
    manager.prompt(id, "plan a cache");
    const first = await reviewOf(id);
    answer(first.interactionId, ["Refuse"], "Use Redis instead");
    const second = await reviewOf(id, 1);
    expect(second.questions[0]?.detail).toBe(REVISED);

    const exitResult = results(id).find((e) => e.name === "ExitPlanMode");
    expect(exitResult?.output).toBe("The user did not approve the plan.");
    const feedback = entries(id).filter(
      (e) => e.kind === "user.message" && e.text === "Use Redis instead",
    );
    expect(feedback).toEqual([{ kind: "user.message", text: "Use Redis instead" }]);
    expect(manager.mode(id).planEnabled).toBe(true);
    expect(existsSync(planFilePath(workspace, id))).toBe(false);
    expect(entries(id).filter((e) => e.kind === "turn.started")).toHaveLength(1);
    // The model sees the refusal's result first, then the feedback as the user's words.
    const revising = requests.at(-1)!.messages;
    const resultAt = revising.findIndex((m) => m.role === "tool" && m.name === "ExitPlanMode");
    expect(revising[resultAt + 1]).toEqual({ role: "user", content: "Use Redis instead" });

    // I7: Chat about it on the revision: stay in plan, the turn ends.
    registry.cancel(second.interactionId);
    await manager.idle(id);
    expect(results(id).at(-1)).toMatchObject({
      name: "ExitPlanMode",
      output: planReviewDismissedText(),
    });
    expect(entries(id).at(-1)).toEqual({ kind: "turn.ended", reason: "completed" });
    expect(manager.mode(id).planEnabled).toBe(true);
  });

  it("[X4] each review is a numbered revision carrying the one before and the feedback it got", async () => {
    open();
    const { id } = manager.create();
    manager.setMode(id, "plan");
    manager.prompt(id, "plan a cache");
    const first = await reviewOf(id);
    expect(first.planRevision).toEqual({ number: 1, contentHash: planContentHash(PLAN) });
    answer(first.interactionId, ["Refuse"], "Use Redis instead");
    const second = await reviewOf(id, 1);
    expect(second.planRevision).toEqual({
      number: 2,
      contentHash: expect.any(String),
      previous: { plan: PLAN, feedback: ["Use Redis instead"] },
    });
    registry.cancel(second.interactionId);
    await manager.idle(id);
    // Chat about it, then a message: that message is feedback on revision 2.
    manager.prompt(id, "redis, but keep the file cache as a fallback");
    const third = await reviewOf(id, 2);
    expect(third.planRevision).toEqual({
      number: 3,
      contentHash: expect.any(String),
      previous: { plan: REVISED, feedback: ["redis, but keep the file cache as a fallback"] },
    });
  });

  it("[P10] refuse without feedback: the turn ends right after the result, no plan file, still plan", async () => {
    open();
    const { id } = manager.create();
    manager.setMode(id, "plan");
    manager.prompt(id, "plan a cache");
    answer((await reviewOf(id)).interactionId, ["Refuse"]);
    await manager.idle(id);
    const tail = entries(id).slice(-2);
    expect(tail[0]).toMatchObject({ kind: "tool.result", name: "ExitPlanMode", isError: false });
    expect(tail[1]).toEqual({ kind: "turn.ended", reason: "completed" });
    expect(requests).toHaveLength(2);
    expect(existsSync(planFilePath(workspace, id))).toBe(false);
    expect(manager.mode(id).planEnabled).toBe(true);
  });

  it("[P2][P5] EnterPlanMode needs no card; after it a write is denied even under yolo, and the reminder follows the switch", async () => {
    open();
    const { id } = manager.create({ mode: "yolo" });
    manager.prompt(id, "enter plan mode please");
    await manager.idle(id);
    expect(entries(id).some((e) => e.kind === "interaction.requested")).toBe(false);
    expect(manager.mode(id)).toEqual({ permissionMode: "yolo", planEnabled: true });
    const write = results(id).find((e) => e.name === "Write");
    expect(write).toMatchObject({
      isError: true,
      output: expect.stringMatching(/not allowed: plan mode is on/),
    });
    expect(existsSync(join(workspace, "blocked.md"))).toBe(false);
    expect(requests[1]!.messages.at(-1)).toEqual({ role: "user", content: planModeReminderFull() });
  });

  it("[P3] ExitPlanMode outside plan mode is denied with a reason, without asking anyone", async () => {
    open();
    const { id } = manager.create();
    manager.prompt(id, "plan a cache");
    await manager.idle(id);
    expect(entries(id).some((e) => e.kind === "interaction.requested")).toBe(false);
    expect(results(id).find((e) => e.name === "ExitPlanMode")).toMatchObject({
      isError: true,
      output: expect.stringMatching(/only works while plan mode is on/),
    });
  });

  it("[P4] a mode change that cannot be stored changes nothing", async () => {
    open();
    const { id } = manager.create({ mode: "edit" });
    db.exec(`CREATE TRIGGER no_room BEFORE INSERT ON entries WHEN NEW.kind = 'session.modeChanged'
             BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END;`);
    expect(() => manager.setMode(id, "plan")).toThrow(StorageError);
    expect(manager.mode(id)).toEqual({ permissionMode: "edit", planEnabled: false });
    expect(manager.summary(log.requireSession(id)).mode).toEqual({
      permissionMode: "edit",
      planEnabled: false,
    });
  });

  it("[P1] the mode survives a restart, read back from the log", async () => {
    open();
    const { id } = manager.create({ mode: "auto" });
    manager.setMode(id, "plan");
    await manager.close();
    db.close();
    open();
    expect(manager.mode(id)).toEqual({ permissionMode: "auto", planEnabled: true });
    expect(manager.setMode(id, "build")).toEqual({ permissionMode: "build", planEnabled: false });
  });

  it("[A7][P8] a plan approved just before a crash is carried out after the restart, not denied", async () => {
    open();
    const { id } = manager.create({ mode: "edit" });
    manager.setMode(id, "plan");
    // The log as a crash leaves it: approved, plan mode already off, no tool result yet.
    log.append(id, { kind: "user.message", text: "plan a cache" });
    log.append(id, { kind: "turn.started" });
    log.append(id, {
      kind: "tool.call",
      callId: "call_9",
      name: "ExitPlanMode",
      input: { plan: PLAN },
    });
    log.append(id, {
      kind: "interaction.requested",
      request: {
        kind: "question",
        interactionId: "int_review",
        sessionId: id,
        toolName: "ExitPlanMode",
        toolCallId: "call_9",
        questions: [planReviewQuestion(PLAN)],
        createdAt: 0,
      },
    });
    log.append(id, {
      kind: "interaction.resolved",
      interactionId: "int_review",
      outcome: {
        type: "answered",
        answers: { "Review this implementation plan": { labels: ["Approve"] } },
        auto: false,
      },
    });
    manager.setMode(id, "edit");
    await manager.close();
    db.close();

    open();
    await manager.idle(id);
    const exit = results(id).find((e) => e.callId === "call_9");
    expect(exit?.isError).toBe(false);
    expect(exit?.output).toContain(`## Approved Plan:\n${PLAN}`);
    expect(readFileSync(planFilePath(workspace, id), "utf8")).toBe(PLAN);
    expect(manager.mode(id)).toEqual({ permissionMode: "edit", planEnabled: false });
    expect(entries(id).filter((e) => e.kind === "interaction.requested")).toHaveLength(1);
  });

  it("'Always allow' on a tool approval saves a project rule, and the next call to that path runs without a card", async () => {
    open();
    const { id } = manager.create();
    manager.prompt(id, "write twice");
    const card = await waitForEntry(log, id, "interaction.requested");
    expect(card.entry.request).toMatchObject({
      kind: "permission",
      toolName: "Write",
      summary: "notes/a.md",
    });
    registry.decide(card.entry.request.interactionId, "allow_always");
    await manager.idle(id);
    expect(entries(id).filter((e) => e.kind === "interaction.requested")).toHaveLength(1);
    expect(readFileSync(join(workspace, "notes", "a.md"), "utf8")).toBe("two");
    expect(
      JSON.parse(readFileSync(join(workspace, ".zcode", "permissions.json"), "utf8")).allow,
    ).toEqual(["Write(notes/a.md)"]);
  });

  it("[P11] after compaction the plan file is put back into the request as a plan-file reference", async () => {
    let seen: ModelRequest | undefined;
    const capture: ModelProvider = {
      ref: "capture/t",
      complete: async (request) => {
        seen = request;
        return { text: "ok", toolCalls: [], stopReason: "end" };
      },
    };
    open({ compactAboveChars: 2_000 }, capture);
    const { id } = manager.create();
    mkdirSync(join(workspace, ".zcode", "plans"), { recursive: true });
    writeFileSync(planFilePath(workspace, id), `# Saved plan\n${"step\n".repeat(30_000)}`);
    for (const word of ["one", "two", "three"]) {
      manager.prompt(id, `${word} ${"words ".repeat(300)}`);
      await manager.idle(id);
    }
    const messages = seen!.messages;
    expect(messages[0]).toMatchObject({
      role: "user",
      content: expect.stringMatching(/was compacted/),
    });
    const reference = messages[1] as { role: string; content: string };
    expect(reference.content).toMatch(/A plan file from plan mode exists at \.zcode\/plans\/plan-/);
    expect(reference.content).toContain("# Saved plan");
    expect(reference.content).toMatch(/the beginning only/);
    expect(Buffer.byteLength(reference.content)).toBeLessThan(81_024 + 1_000);
    expect(messages.at(-1)).toMatchObject({
      role: "user",
      content: expect.stringMatching(/^three/),
    });
  });
});
