import type { ExecutionMode, ModeName } from "../../protocol/index.ts";

/** P1: plan sits on top of the permission mode, and wins the chip while it is on. */
export function modeName(mode: ExecutionMode): ModeName {
  return mode.planEnabled ? "plan" : mode.permissionMode;
}
