import { z } from "zod/mini";
import { MAX_PLAN_CHARS } from "./question.ts";
import { planNotBlank } from "./rules.ts";

/**
 * P7/X1: a plan submitted for review, as ExitPlanMode takes it. The one source of the plan
 * contract: MCP's review_plan takes its `plan` field as it is.
 */
export const PlanSubmission = z.strictObject({
  plan: z
    .string()
    .check(
      z.maxLength(MAX_PLAN_CHARS),
      z.refine(planNotBlank, { message: "the plan may not be empty" }),
      z.describe("The complete plan, as markdown."),
    ),
  allowedPrompts: z.optional(
    z
      .array(
        z.strictObject({
          tool: z
            .string()
            .check(z.minLength(1), z.describe("The tool the action needs, e.g. Bash.")),
          prompt: z
            .string()
            .check(z.minLength(1), z.describe("What the action does, e.g. run the test suite.")),
        }),
      )
      .check(
        z.maxLength(20),
        z.describe("Actions the plan will need; echoed back, they grant nothing."),
      ),
  ),
});
export type PlanSubmission = z.infer<typeof PlanSubmission>;
