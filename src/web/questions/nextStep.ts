import type { InteractionRequest, StoredEntry } from "../../protocol/index.ts";
import { decidedPlanOf, type PlanDecision } from "./planDecision.ts";

/** Steps the agent is carrying out: once its turn has ended, saying so would be stale. */
function underway(decision: PlanDecision): boolean {
  return (
    decision.kind === "approved" ||
    decision.kind === "asked" ||
    (decision.kind === "refused" && decision.feedback !== undefined)
  );
}

/**
 * I7: after a plan review ends, what the agent does next, until the user writes again, or,
 * for what the agent goes on to do, until its turn has ended.
 * The feedback of a refusal enters the log as the user's message; that one does not count.
 */
export function nextStepOf(
  entries: readonly StoredEntry[],
  requests: Readonly<Record<string, InteractionRequest>>,
): PlanDecision | null {
  const laterMessages: string[] = [];
  // The last turn entry since the decision, read from the end: the agent is idle if it ended.
  let lastTurn: "turn.started" | "turn.ended" | undefined;
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = entries[index]?.entry;
    if (entry === undefined) continue;
    if (entry.kind === "user.message" && !entry.synthetic) laterMessages.push(entry.text.trim());
    if (entry.kind === "turn.started" || entry.kind === "turn.ended") lastTurn ??= entry.kind;
    if (entry.kind !== "interaction.resolved") continue;
    const decided = decidedPlanOf(requests[entry.interactionId], entry.outcome);
    if (decided === null) continue;
    const { decision } = decided;
    if (lastTurn === "turn.ended" && underway(decision)) return null;
    const feedback = decision.kind === "refused" ? decision.feedback : undefined;
    return laterMessages.every((text) => text === feedback) ? decision : null;
  }
  return null;
}
