import type { ExecutionMode, PlanApproveOption } from "../../protocol/index.ts";
import type { ToolContext } from "../tools/contract.ts";

/**
 * V5: leaves plan mode the way the approval asked. `default` and `fresh` go back to the
 * permission mode that was under plan mode (the seed's behaviour); `edit` and `build` set it.
 */
export function applyApproveOption(
  context: Pick<ToolContext, "setPlanMode" | "setExecutionMode">,
  option: PlanApproveOption,
): ExecutionMode | undefined {
  if ((option === "edit" || option === "build") && context.setExecutionMode) {
    return context.setExecutionMode({ permissionMode: option, planEnabled: false });
  }
  return context.setPlanMode?.(false);
}
