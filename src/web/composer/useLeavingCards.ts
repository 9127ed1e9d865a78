import { useLeaving } from "../layout/useLeaving.ts";
import { planReviewOf } from "../questions/planReviewOf.ts";
import type { PendingInteraction } from "../questions/types.ts";

/** A plan this long leaves in steps (layout/teardown.tsx); shorter cards unmount at once. */
const LONG_PLAN_CHARS = 20_000;

/** A card as the composer area shows it: the interaction, or the notice that it was settled elsewhere. */
export interface ShownCard {
  pending: PendingInteraction;
  /** W12: settled in another tab; the card is a notice and the plan, if any, is leaving. */
  elsewhere: boolean;
}

// The notice has a key of its own, so the card it replaces keeps its key while it leaves.
function keyOf({ pending, elsewhere }: ShownCard): string {
  const id = pending.request.interactionId;
  return elsewhere ? `${id}/elsewhere` : id;
}

function leavesInSteps({ pending, elsewhere }: ShownCard): boolean {
  const { request } = pending;
  if (elsewhere || request.kind !== "question") return false;
  return (planReviewOf(request)?.plan.length ?? 0) > LONG_PLAN_CHARS;
}

/**
 * The cards the composer area mounts: the one shown, after the long plan cards that have just
 * left it, also when the one shown is the notice that a plan was settled elsewhere (W12).
 */
export function useLeavingCards(card: PendingInteraction | null, elsewhere: boolean) {
  return useLeaving(card && { pending: card, elsewhere }, keyOf, leavesInSteps);
}
