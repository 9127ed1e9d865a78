import { useEffect, useRef } from "react";
import type { ModeName } from "../../protocol/index.ts";

/** P2: the order Shift+Tab walks through in the composer. */
export const MODE_CYCLE: readonly ModeName[] = ["plan", "build", "edit", "yolo"];

/** A press this soon after the last one, with no word from the server since, cycles on from it. */
const QUICK_PRESS_MS = 1_000;

/** The mode after `current`; from a mode outside the cycle (auto) it starts again at plan. */
export function nextModeInCycle(current: ModeName | null): ModeName {
  const index = current === null ? -1 : MODE_CYCLE.indexOf(current);
  return MODE_CYCLE[(index + 1) % MODE_CYCLE.length]!;
}

/**
 * P2: the mode the next Shift+Tab asks for. It cycles from the mode the server last reported,
 * except right after a press it has not answered yet: pressed twice quickly, the second press
 * goes one further (plan → build → edit), not to the same mode again.
 */
export function useModeCycle(sessionId: string, reported: ModeName | null): () => ModeName {
  const asked = useRef<{ mode: ModeName; at: number } | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a report, or another session, ends the wait
  useEffect(() => {
    asked.current = null;
  }, [reported, sessionId]);
  return () => {
    const last = asked.current;
    const from = last && performance.now() - last.at < QUICK_PRESS_MS ? last.mode : reported;
    const next = nextModeInCycle(from);
    asked.current = { mode: next, at: performance.now() };
    return next;
  };
}
