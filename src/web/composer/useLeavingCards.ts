import { useCallback, useLayoutEffect, useState } from "react";
import { planReviewOf } from "../questions/planReviewOf.ts";
import type { PendingInteraction } from "../questions/types.ts";

const NONE: PendingInteraction[] = [];

/** A plan this long leaves in steps (layout/teardown.tsx); shorter cards unmount at once. */
const LONG_PLAN_CHARS = 20_000;

function leavesInSteps(card: PendingInteraction): boolean {
  const { request } = card;
  if (request.kind !== "question") return false;
  return (planReviewOf(request)?.plan.length ?? 0) > LONG_PLAN_CHARS;
}

export interface AreaCard {
  each: PendingInteraction;
  /** Gone from the queue; kept mounted, hidden, while its long plan is taken down. */
  isLeaving: boolean;
}

/**
 * The cards the composer area mounts: the one shown, after the long plan cards that have just
 * left it. `left` drops a leaving card once its plan is down (TeardownScope's onDone).
 */
export function useLeavingCards(card: PendingInteraction | null, elsewhere: boolean) {
  const cardId = card?.request.interactionId;
  const [previous, setPrevious] = useState(card);
  const [leaving, setLeaving] = useState(NONE);
  const previousId = previous?.request.interactionId;
  // During render, so the card never unmounts between being shown and leaving.
  if (cardId !== previousId) {
    setPrevious(card);
    if (previous && !elsewhere && leavesInSteps(previous)) {
      setLeaving((cards) => [
        ...cards.filter((c) => c.request.interactionId !== previousId),
        previous,
      ]);
    }
  }
  const cards: AreaCard[] = leaving
    .filter((each) => each.request.interactionId !== cardId)
    .map((each) => ({ each, isLeaving: true }));
  if (card) cards.push({ each: card, isLeaving: false });

  // Focus inside a card being hidden moves out, as its removal would have moved it.
  const leavingIds = cards
    .filter((c) => c.isLeaving)
    .map((c) => c.each.request.interactionId)
    .join(" ");
  useLayoutEffect(() => {
    if (leavingIds === "") return;
    const active = document.activeElement;
    if (active instanceof HTMLElement && active.closest("[data-leaving-card]")) active.blur();
  }, [leavingIds]);

  const left = useCallback(
    (id: string) => setLeaving((cards) => cards.filter((c) => c.request.interactionId !== id)),
    [],
  );
  return { cards, left };
}
