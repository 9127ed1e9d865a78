import type { ExecutionMode, ModeName } from "../../protocol/index.ts";

/**
 * P1: `plan` switches the plan flag on and keeps the permission mode underneath; any other
 * name sets the permission mode and leaves plan.
 */
export function applyModeName(current: ExecutionMode, name: ModeName): ExecutionMode {
  if (name === "plan") return { permissionMode: current.permissionMode, planEnabled: true };
  return { permissionMode: name, planEnabled: false };
}

export function initialMode(name: ModeName): ExecutionMode {
  return applyModeName({ permissionMode: "build", planEnabled: false }, name);
}
