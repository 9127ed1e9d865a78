import type { ExecutionMode } from "../../protocol/index.ts";
import { decidePermission } from "../permissions/decide.ts";
import { planModeEnteredText } from "../plan/planTexts.ts";
import type { ToolContext } from "./contract.ts";
import { enterPlanModeTool } from "./enterPlanMode.ts";

function contextIn(mode: ExecutionMode, changes: boolean[] = []): ToolContext {
  let current = mode;
  return {
    sessionId: "sess_1",
    workspace: "/tmp",
    signal: new AbortController().signal,
    mode: () => current,
    setPlanMode: (enabled) => {
      changes.push(enabled);
      current = { ...current, planEnabled: enabled };
      return current;
    },
  };
}

describe("EnterPlanMode", () => {
  it("[P2] needs no approval and is allowed in every mode", () => {
    expect(enterPlanModeTool.requiresUserInteraction).toBeUndefined();
    for (const permissionMode of ["build", "edit", "yolo", "auto"] as const) {
      for (const planEnabled of [false, true]) {
        expect(decidePermission(enterPlanModeTool, {}, { permissionMode, planEnabled })).toEqual({
          type: "allow",
        });
      }
    }
  });

  it("[P2] switches plan mode on through the session and explains its rules", async () => {
    const changes: boolean[] = [];
    const result = await enterPlanModeTool.run(
      {},
      contextIn({ permissionMode: "edit", planEnabled: false }, changes),
    );
    expect(changes).toEqual([true]);
    expect(result).toEqual({ output: planModeEnteredText() });
    expect(result.output).toMatch(/Do not write or edit any files yet\.$/);
    expect(result.output).toContain("ExitPlanMode");
  });

  it("changes nothing when plan mode is already on", async () => {
    const changes: boolean[] = [];
    const result = await enterPlanModeTool.run(
      {},
      contextIn({ permissionMode: "build", planEnabled: true }, changes),
    );
    expect(changes).toEqual([]);
    expect(result.output).toMatch(/already on/);
  });

  it("reports a mode change that could not be stored as an error of the call", async () => {
    const context: ToolContext = {
      ...contextIn({ permissionMode: "build", planEnabled: false }),
      setPlanMode: () => {
        throw new Error("disk full");
      },
    };
    await expect(enterPlanModeTool.run({}, context)).rejects.toThrow("disk full");
  });

  it("its description encourages planning non-trivial work and says no approval is needed", () => {
    const description = enterPlanModeTool.description;
    expect(description).toMatch(/not trivial/);
    expect(description).toMatch(/without asking the user/);
    expect(description).toContain("ExitPlanMode");
    expect(enterPlanModeTool.inputSchema.safeParse({}).success).toBe(true);
    expect(enterPlanModeTool.inputSchema.safeParse({ reason: "x" }).success).toBe(false);
  });
});
