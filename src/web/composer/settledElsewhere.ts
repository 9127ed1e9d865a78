import type { ResolvedInteraction } from "../store/types.ts";

/**
 * X3: a card this tab was showing disappeared because a person acted on it somewhere else:
 * not here, not by the timer (A3) and not by an abort (Q8).
 */
export function settledElsewhere(
  resolved: ResolvedInteraction | undefined,
  actedHere: boolean,
): boolean {
  if (!resolved || actedHere) return false;
  const { outcome } = resolved;
  if (outcome.type === "aborted") return false;
  if (outcome.type === "answered" && outcome.auto) return false;
  return true;
}
