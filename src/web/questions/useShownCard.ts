import { useCallback, useEffect, useRef, useState } from "react";
import { settledElsewhere } from "../composer/settledElsewhere.ts";
import { appStore } from "../store/store.ts";
import type { PendingInteraction } from "./types.ts";

const ELSEWHERE_NOTICE_MS = 6_000;

/**
 * W12: which card the composer area shows. When the card on screen was settled in another
 * tab or on another device, this tab says so first, also when a next card is already waiting;
 * the next one follows after a moment or when the user asks for it.
 */
export function useShownCard(sessionId: string, head: PendingInteraction | undefined) {
  const actedHere = useRef(new Set<string>());
  const shown = useRef<PendingInteraction | null>(null);
  const [elsewhere, setElsewhere] = useState<PendingInteraction | null>(null);

  useEffect(() => {
    const previous = shown.current;
    shown.current = head ?? null;
    if (!previous || previous.request.interactionId === head?.request.interactionId) return;
    const id = previous.request.interactionId;
    const resolved = appStore.getState().views[sessionId]?.resolved[id];
    setElsewhere(settledElsewhere(resolved, actedHere.current.has(id)) ? previous : null);
  }, [head, sessionId]);

  useEffect(() => {
    if (!elsewhere) return;
    const timer = setTimeout(() => setElsewhere(null), ELSEWHERE_NOTICE_MS);
    return () => clearTimeout(timer);
  }, [elsewhere]);

  const markActed = useCallback((id: string) => actedHere.current.add(id), []);
  const showNext = useCallback(() => setElsewhere(null), []);
  return { card: elsewhere ?? head ?? null, elsewhere: elsewhere !== null, markActed, showNext };
}
