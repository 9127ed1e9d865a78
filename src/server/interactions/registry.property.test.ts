import fc from "fast-check";
import type { InteractionOutcome, QuestionAnswers } from "../../protocol/index.ts";
import {
  type Asked,
  colourQuestion,
  createHarness,
  DEADLINE_MS,
  featuresQuestion,
  flush,
  planReviewQuestion,
} from "./registryHarness.ts";

type Action =
  | { type: "ask"; session: number; what: "question" | "review" | "permission" }
  | { type: "answer"; target: number; valid: boolean }
  | { type: "cancel"; target: number }
  | { type: "decide"; target: number }
  | { type: "touch"; target: number }
  | { type: "draft"; target: number }
  | { type: "advance"; ms: number }
  | { type: "setting"; on: boolean }
  | { type: "abortSession"; session: number }
  | { type: "abortSignal"; target: number }
  | { type: "storage"; failing: boolean };

const target = fc.nat({ max: 7 });
const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({
    type: fc.constant("ask" as const),
    session: fc.nat({ max: 1 }),
    what: fc.constantFrom(
      "question" as const,
      "question" as const,
      "review" as const,
      "permission" as const,
    ),
  }),
  fc.record({ type: fc.constant("answer" as const), target, valid: fc.boolean() }),
  fc.record({ type: fc.constant("cancel" as const), target }),
  fc.record({ type: fc.constant("decide" as const), target }),
  fc.record({ type: fc.constant("touch" as const), target }),
  fc.record({ type: fc.constant("draft" as const), target }),
  fc.record({
    type: fc.constant("advance" as const),
    ms: fc.oneof(fc.nat({ max: DEADLINE_MS * 2 }), fc.constant(DEADLINE_MS), fc.constant(1)),
  }),
  fc.record({ type: fc.constant("setting" as const), on: fc.boolean() }),
  fc.record({ type: fc.constant("abortSession" as const), session: fc.nat({ max: 1 }) }),
  fc.record({ type: fc.constant("abortSignal" as const), target }),
  fc.record({ type: fc.constant("storage" as const), failing: fc.boolean() }),
);

interface Tracked {
  asked: Asked<unknown>;
  controller: AbortController;
}

const sessions = ["sess_a", "sess_b"];
const validAnswer: QuestionAnswers = { [colourQuestion.question]: { labels: ["Red"] } };
const invalidAnswer: QuestionAnswers = { [colourQuestion.question]: { labels: ["Green"] } };

describe("interaction registry under any interleaving", () => {
  it("[R3][A4][A5][Q7] resolves every interaction exactly once and tells its asker once", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { maxLength: 60 }), async (actions) => {
        const h = createHarness();
        const tracked: Tracked[] = [];
        const pausedForGood = new Set<string>();
        let failing = false;
        const pick = (index: number) => tracked[index % Math.max(tracked.length, 1)];

        for (const step of actions) {
          const logBefore = h.log.length;
          const chosen = "target" in step ? pick(step.target) : undefined;
          const id = chosen?.asked.interactionId ?? "int_missing";
          switch (step.type) {
            case "ask": {
              if (failing) break;
              const controller = new AbortController();
              const sessionId = sessions[step.session] ?? "sess_a";
              const asked: Asked<unknown> =
                step.what === "permission"
                  ? h.askPermission(sessionId, controller.signal)
                  : h.ask(
                      sessionId,
                      step.what === "review"
                        ? [planReviewQuestion]
                        : [colourQuestion, featuresQuestion],
                      step.what === "review" ? "ExitPlanMode" : "AskUserQuestion",
                      controller.signal,
                    );
              tracked.push({ asked, controller });
              break;
            }
            case "answer": {
              const receipt = h.registry.answer(id, step.valid ? validAnswer : invalidAnswer);
              expectReceiptHonest(h, receipt.ok, id, logBefore);
              break;
            }
            case "cancel":
            case "decide": {
              const receipt =
                step.type === "cancel" ? h.registry.cancel(id) : h.registry.decide(id, "deny");
              expectReceiptHonest(h, receipt.ok, id, logBefore);
              break;
            }
            case "touch": {
              const counting = h.registry
                .pending(sessionOf(h, id))
                .some((p) => p.request.interactionId === id && p.countdown.phase === "counting");
              const receipt = h.registry.touch(id);
              if (counting && receipt.ok) pausedForGood.add(id);
              break;
            }
            case "draft": {
              const receipt = h.registry.saveDraft(id, { page: 0, picks: {}, other: {} });
              if (receipt.ok) pausedForGood.add(id);
              break;
            }
            case "advance":
              h.clock.advance(step.ms);
              break;
            case "setting":
              h.setAutoContinue(step.on);
              break;
            case "abortSession":
              if (!failing) h.registry.abortSession(sessions[step.session] ?? "sess_a", "stopped");
              break;
            case "abortSignal":
              if (!failing) chosen?.controller.abort("stopped");
              break;
            case "storage":
              failing = step.failing;
              h.failWrites(failing);
              break;
          }
          for (const { asked } of tracked) {
            expect(h.resolvedFor(asked.interactionId).length).toBeLessThanOrEqual(1);
          }
          for (const sessionId of sessions) {
            const views = h.registry.pending(sessionId);
            expect(views.slice(1).map((view) => view.countdown.phase)).not.toContain("counting");
          }
        }

        h.failWrites(false);
        for (const sessionId of sessions) h.registry.abortSession(sessionId, "end of test");
        await flush();
        for (const { asked } of tracked) {
          const resolved = h.resolvedFor(asked.interactionId);
          expect(resolved).toHaveLength(1);
          const outcome =
            resolved[0]?.kind === "interaction.resolved" ? resolved[0].outcome : undefined;
          expect(asked.outcomes).toEqual([outcome]);
          if (pausedForGood.has(asked.interactionId)) expect(isAuto(outcome)).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });
});

function isAuto(outcome: InteractionOutcome | undefined): boolean {
  return outcome?.type === "answered" && outcome.auto;
}

function sessionOf(h: ReturnType<typeof createHarness>, interactionId: string): string {
  for (const sessionId of sessions) {
    if (h.registry.pending(sessionId).some((p) => p.request.interactionId === interactionId)) {
      return sessionId;
    }
  }
  return "";
}

/** R3: an accepted receipt means exactly this resolution was written; a rejected one, nothing. */
function expectReceiptHonest(
  h: ReturnType<typeof createHarness>,
  ok: boolean,
  interactionId: string,
  logBefore: number,
): void {
  if (!ok) {
    expect(h.log.length).toBe(logBefore);
    return;
  }
  const written = h.log.slice(logBefore).map((e) => e.stored.entry);
  expect(written[0]).toMatchObject({ kind: "interaction.resolved", interactionId });
  expect(written.slice(1).every((entry) => entry.kind === "interaction.countdown")).toBe(true);
}
