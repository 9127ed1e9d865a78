import { z } from "zod";
import { ENTER_PLAN_MODE_TOOL } from "../permissions/policy.ts";
import { alreadyInPlanModeText, planModeEnteredText } from "../plan/planTexts.ts";
import type { ToolContract } from "./contract.ts";

const DESCRIPTION = `Switch this session to plan mode, in which you explore read-only and then submit a plan for the user to approve before anything changes.

Use it before starting implementation work that is not trivial, for example when:
- the task adds a feature or changes behaviour in more than one place;
- there are several reasonable ways to do it and the choice matters;
- the change touches code you have not read yet, or its reach is unclear;
- the request is ambiguous and exploring first would tell you what is really wanted;
- a mistake would be costly to undo (data formats, public interfaces, migrations).

Skip it for small, clear changes such as a typo, a one-line fix, or when the user already told you exactly what to do, and for pure questions about the code.

The switch happens at once, without asking the user; they see the mode change and can leave plan mode themselves. While plan mode is on, tools that change files or the system are refused. When the plan is ready, submit it with ExitPlanMode.`;

const EnterPlanModeInput = z.strictObject({});
type EnterPlanModeInput = z.infer<typeof EnterPlanModeInput>;

/** P2/P3: needs no approval; it is a session control, so plan mode itself allows it too. */
export const enterPlanModeTool: ToolContract<EnterPlanModeInput> = {
  name: ENTER_PLAN_MODE_TOOL,
  description: DESCRIPTION,
  inputSchema: EnterPlanModeInput,
  readOnly: true,
  destructive: false,
  allowedInPlanMode: true,
  summarize: () => "plan mode",
  async run(_input, context) {
    if (context.mode().planEnabled) return { output: alreadyInPlanModeText() };
    if (!context.setPlanMode) {
      return { output: "This session cannot switch to plan mode.", isError: true };
    }
    context.setPlanMode(true);
    return { output: planModeEnteredText() };
  },
};
