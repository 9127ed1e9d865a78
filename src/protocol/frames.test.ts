import {
  ClientFrame,
  MAX_FRAME_BYTES,
  MAX_HISTORY_PAGE,
  PROTOCOL_VERSION,
  ServerBatch,
  ServerFrame,
} from "./frames.ts";
import { MAX_PLAN_CHARS } from "./question.ts";

const session = {
  id: "s1",
  title: "t",
  createdAt: 1,
  updatedAt: 2,
  lastSeq: 900,
  model: "scripted/demo",
  mode: { permissionMode: "build", planEnabled: false },
  pendingInteractions: 1,
};
const message = (seq: number) => ({ seq, at: seq, entry: { kind: "user.message", text: "hi" } });

describe("frames", () => {
  it("[R2] session.history asks for a positive page no larger than the cap", () => {
    const ask = (extra: object) =>
      ClientFrame.safeParse({ type: "session.history", sessionId: "s1", beforeSeq: 40, ...extra });
    expect(ask({}).success).toBe(true);
    expect(ask({ limit: MAX_HISTORY_PAGE }).success).toBe(true);
    expect(ask({ limit: MAX_HISTORY_PAGE + 1 }).success).toBe(false);
    expect(ask({ limit: 0 }).success).toBe(false);
    expect(ask({ beforeSeq: 0 }).success).toBe(false);
    expect(ask({ page: 2 }).success).toBe(false);
  });

  it("[R2][V6] an approval carrying the longest edited plan, in 3-byte characters, with ten comments fits in a frame", () => {
    const comment = (index: number) => ({
      id: `c${index}`,
      anchor: {
        headingPath: ["计划", "步骤"],
        blockIndex: index,
        blockText: "改".repeat(400),
        quote: "改".repeat(200),
        lines: { start: index + 1, end: index + 1 },
      },
      text: "请".repeat(500),
    });
    const answer = (editedPlan: string) => ({
      type: "interaction.answer",
      interactionId: "int_1",
      answers: {
        "Approve the plan?": {
          labels: ["Approve"],
          review: { editedPlan, comments: Array.from({ length: 10 }, (_, i) => comment(i)) },
        },
      },
    });
    const longest = answer("计".repeat(MAX_PLAN_CHARS));
    expect(ClientFrame.safeParse(longest).success).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(longest))).toBeLessThan(MAX_FRAME_BYTES);
    expect(ClientFrame.safeParse(answer("计".repeat(MAX_PLAN_CHARS + 1))).success).toBe(false);
  });

  it("[W3] a snapshot may carry context and say how much history came before it", () => {
    const frame = {
      type: "snapshot",
      session,
      context: [{ seq: 1, at: 1, entry: { kind: "session.modelChanged", model: "m" } }],
      entries: [message(800), message(801)],
      earlier: { beforeSeq: 800, count: 799 },
    };
    expect(ServerFrame.safeParse(frame).success).toBe(true);
    expect(ServerFrame.safeParse({ ...frame, earlier: { beforeSeq: 800 } }).success).toBe(false);
    expect(ServerFrame.safeParse({ ...frame, earlier: { beforeSeq: 1, count: 0 } }).success).toBe(
      false,
    );
  });

  it("[W3] a history page is strict like every frame", () => {
    const page = { type: "history", sessionId: "s1", beforeSeq: 800, entries: [message(799)] };
    expect(ServerFrame.safeParse(page).success).toBe(true);
    expect(ServerFrame.safeParse({ ...page, more: true }).success).toBe(false);
  });

  it("[R2] a batch holds two or more server frames, none of them a batch, and nothing else; hello may ask for batches", () => {
    const receipt = { type: "receipt", interactionId: "q1", ok: true };
    const batch = {
      type: "batch",
      frames: [receipt, { type: "session.removed", sessionId: "s1" }],
    };
    expect(ServerBatch.safeParse(batch).success).toBe(true);
    expect(ServerFrame.safeParse(batch).success).toBe(false);
    expect(ServerBatch.safeParse({ ...batch, frames: [receipt] }).success).toBe(false);
    expect(ServerBatch.safeParse({ ...batch, extra: 1 }).success).toBe(false);
    expect(ServerBatch.safeParse({ type: "batch", frames: [batch, receipt] }).success).toBe(false);
    const hello = { type: "hello", protocol: PROTOCOL_VERSION };
    expect(ClientFrame.safeParse({ ...hello, batches: true }).success).toBe(true);
    expect(ClientFrame.safeParse({ ...hello, batches: false }).success).toBe(false);
  });
});
