import type { ModeName } from "../../protocol/index.ts";

/** P2: the order Shift+Tab walks through in the composer. */
export const MODE_CYCLE: readonly ModeName[] = ["plan", "build", "edit", "yolo"];

/** The mode after `current`; from a mode outside the cycle (auto) it starts again at plan. */
export function nextModeInCycle(current: ModeName | null): ModeName {
  const index = current === null ? -1 : MODE_CYCLE.indexOf(current);
  return MODE_CYCLE[(index + 1) % MODE_CYCLE.length]!;
}
