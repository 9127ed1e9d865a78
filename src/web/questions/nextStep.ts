import type { InteractionRequest, StoredEntry } from "../../protocol/index.ts";
import { decidedPlanOf, type PlanDecision } from "./planDecision.ts";

/**
 * I7: after a plan review ends, what the agent does next, until the user writes again.
 * The feedback of a refusal enters the log as the user's message; that one does not count.
 */
export function nextStepOf(
  entries: readonly StoredEntry[],
  requests: Readonly<Record<string, InteractionRequest>>,
): PlanDecision | null {
  const laterMessages: string[] = [];
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = entries[index]?.entry;
    if (entry === undefined) continue;
    if (entry.kind === "user.message" && !entry.synthetic) laterMessages.push(entry.text.trim());
    if (entry.kind !== "interaction.resolved") continue;
    const decided = decidedPlanOf(requests[entry.interactionId], entry.outcome);
    if (decided === null) continue;
    const { decision } = decided;
    const feedback = decision.kind === "refused" ? decision.feedback : undefined;
    return laterMessages.every((text) => text === feedback) ? decision : null;
  }
  return null;
}
