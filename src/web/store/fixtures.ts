import type {
  QuestionRequest,
  ServerFrame,
  SessionEntry,
  SessionSummary,
  StoredEntry,
} from "../../protocol/index.ts";

/** Test builders for frames and entries; shared by the store and component tests. */
export function summary(id: string, overrides: Partial<SessionSummary> = {}): SessionSummary {
  return {
    id,
    title: `Session ${id}`,
    createdAt: 1_000,
    updatedAt: 2_000,
    lastSeq: 0,
    model: "scripted/demo",
    mode: { permissionMode: "build", planEnabled: false },
    pendingInteractions: 0,
    ...overrides,
  };
}

export function stored(seq: number, entry: SessionEntry, at = 10_000 + seq): StoredEntry {
  return { seq, at, entry };
}

export function eventFrame(sessionId: string, seq: number, entry: SessionEntry): ServerFrame {
  return { type: "event", sessionId, seq, at: 10_000 + seq, entry };
}

export function snapshotFrame(
  sessionId: string,
  entries: StoredEntry[],
  overrides: Partial<SessionSummary> = {},
): ServerFrame {
  const lastSeq = entries.at(-1)?.seq ?? 0;
  return { type: "snapshot", session: summary(sessionId, { lastSeq, ...overrides }), entries };
}

export function welcomeFrame(overrides: Partial<Extract<ServerFrame, { type: "welcome" }>> = {}) {
  return {
    type: "welcome",
    protocol: 1,
    serverNow: 50_000,
    settings: { autoContinue: true, theme: "system" },
    sessions: [],
    models: [],
    timings: { graceMs: 60_000, deadlineMs: 300_000 },
    ...overrides,
  } satisfies ServerFrame;
}

export const created: SessionEntry = {
  kind: "session.created",
  title: "Demo",
  model: "scripted/demo",
  mode: { permissionMode: "build", planEnabled: false },
};

export function questionRequest(interactionId: string, sessionId = "s1"): QuestionRequest {
  return {
    kind: "question",
    interactionId,
    sessionId,
    toolName: "AskUserQuestion",
    toolCallId: `call-${interactionId}`,
    createdAt: 1,
    questions: [
      {
        question: `Which database for ${interactionId}?`,
        header: "Database",
        multiSelect: false,
        options: [
          { label: "SQLite (Recommended)", description: "One file" },
          { label: "Postgres", description: "A server" },
        ],
      },
    ],
  };
}

/** An ExitPlanMode review of `plan`, as the plan-review panel receives it. */
export function planReviewRequest(
  interactionId: string,
  plan: string,
  sessionId = "s1",
): QuestionRequest {
  return {
    kind: "question",
    interactionId,
    sessionId,
    toolName: "ExitPlanMode",
    toolCallId: `call-${interactionId}`,
    createdAt: 1,
    questions: [
      {
        question: "Review this implementation plan",
        header: "Plan",
        multiSelect: false,
        detail: plan,
        intent: { kind: "plan-review", approve: "Approve" },
        options: [
          { label: "Approve", description: "Start editing" },
          { label: "Refuse", description: "Stay in plan mode" },
        ],
      },
    ],
  };
}

/** A plan of `sections` short sections: one markdown block per heading and one per paragraph. */
export function longPlan(sections: number): string {
  return Array.from(
    { length: sections },
    (_, i) =>
      `## Step ${i}\n\nChange \`src/part${i}.ts\` so that the cache is read once per call and the stale entries are dropped before the next read starts; then check the callers that still read the catalog directly and move them over one at a time.`,
  ).join("\n\n");
}
