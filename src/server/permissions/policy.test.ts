import { z } from "zod";
import type { ExecutionMode, PermissionMode } from "../../protocol/index.ts";
import type { ToolContract } from "../tools/contract.ts";
import { decideWithRules, type PermissionRule } from "./policy.ts";
import { NO_RULES, type ProjectRules } from "./projectRules.ts";
import { parseRule } from "./rules.ts";

const tool = (name: string, flags: Partial<ToolContract<unknown>> = {}): ToolContract<unknown> => ({
  name,
  description: "",
  inputSchema: z.unknown(),
  readOnly: false,
  destructive: false,
  run: async () => ({ output: "" }),
  ...flags,
});

const read = tool("Read", { readOnly: true });
const write = tool("Write");
const edit = tool("Edit");
const bash = tool("Bash");
const rmrf = tool("Nuke", { readOnly: true, destructive: true });
const todo = tool("TodoWrite", { allowedInPlanMode: true });
const ask = tool("AskUserQuestion", {
  readOnly: true,
  requiresUserInteraction: true,
  allowedInPlanMode: true,
});
const exitPlan = tool("ExitPlanMode", { requiresUserInteraction: true, allowedInPlanMode: true });
const enterPlan = tool("EnterPlanMode", { readOnly: true, allowedInPlanMode: true });
const mcpLookup = tool("mcp__docs__lookup");
const mcpDrop = tool("mcp__db__drop", { destructive: true });

const mode = (permissionMode: PermissionMode, planEnabled = false): ExecutionMode => ({
  permissionMode,
  planEnabled,
});
const PERMISSION_MODES: PermissionMode[] = ["build", "edit", "yolo", "auto"];

const rules = (
  lists: Partial<Record<"allow" | "deny" | "ask", string[]>> & { disallowedTools?: string[] },
): ProjectRules => ({
  allow: (lists.allow ?? []).map((text) => parseRule(text)!),
  deny: (lists.deny ?? []).map((text) => parseRule(text)!),
  ask: (lists.ask ?? []).map((text) => parseRule(text)!),
  disallowedTools: lists.disallowedTools ?? [],
});

function decide(
  subject: ToolContract<unknown>,
  executionMode: ExecutionMode,
  options: { rules?: ProjectRules; input?: unknown; disallowedTools?: string[] } = {},
) {
  return decideWithRules({
    tool: subject,
    input: options.input ?? {},
    mode: executionMode,
    rules: options.rules ?? NO_RULES,
    workspace: "/ws",
    ...(options.disallowedTools ? { disallowedTools: options.disallowedTools } : {}),
  });
}

const ruleOf = (...args: Parameters<typeof decide>): PermissionRule => decide(...args).rule;

describe("permission policy: the mode defaults", () => {
  it("[P1] build asks before anything that is not read-only", () => {
    expect(decide(read, mode("build"))).toEqual({ verdict: { type: "allow" }, rule: "mode.build" });
    expect(decide(write, mode("build")).verdict).toEqual({ type: "ask" });
    expect(decide(bash, mode("build")).verdict).toEqual({ type: "ask" });
  });

  it("[P1] edit and auto allow file edits and ask for the rest", () => {
    for (const name of ["edit", "auto"] as const) {
      expect(decide(write, mode(name)).verdict).toEqual({ type: "allow" });
      expect(decide(edit, mode(name)).verdict).toEqual({ type: "allow" });
      expect(decide(read, mode(name)).verdict).toEqual({ type: "allow" });
      expect(decide(bash, mode(name))).toEqual({ verdict: { type: "ask" }, rule: `mode.${name}` });
    }
  });

  it("[P1] yolo allows everything outside plan mode", () => {
    for (const subject of [write, bash, rmrf, mcpDrop]) {
      expect(decide(subject, mode("yolo"))).toEqual({
        verdict: { type: "allow" },
        rule: "mode.yolo",
      });
    }
  });
});

describe("permission policy: plan mode", () => {
  it("[P1][P5] denies writes in plan mode under every permission mode, yolo included", () => {
    for (const permissionMode of PERMISSION_MODES) {
      for (const subject of [write, edit, bash, rmrf, mcpDrop]) {
        const decision = decide(subject, mode(permissionMode, true));
        expect(decision.rule).toBe("plan.denied");
        expect(decision.verdict).toMatchObject({
          type: "deny",
          reason: expect.stringContaining("plan mode"),
        });
      }
    }
  });

  it("[P5] allows read-only tools, non-destructive MCP tools and session controls", () => {
    for (const subject of [read, mcpLookup, todo, enterPlan]) {
      expect(decide(subject, mode("build", true)).verdict).toEqual({ type: "allow" });
    }
    expect(ruleOf(read, mode("yolo", true))).toBe("plan.allowed");
    expect(ruleOf(todo, mode("build", true))).toBe("plan.allowed");
  });

  it("[P5] denies rather than asks, and before project allow rules", () => {
    const allowAll = rules({ allow: ["Write", "Bash"] });
    expect(decide(write, mode("build", true), { rules: allowAll }).rule).toBe("plan.denied");
    expect(decide(write, mode("build", false), { rules: allowAll }).rule).toBe("project.allow");
  });

  it("[P5] comes after project deny and ask rules", () => {
    expect(ruleOf(read, mode("build", true), { rules: rules({ deny: ["Read"] }) })).toBe(
      "project.deny",
    );
    expect(ruleOf(read, mode("build", true), { rules: rules({ ask: ["Read"] }) })).toBe(
      "project.ask",
    );
  });
});

describe("permission policy: plan transitions and user-interaction tools", () => {
  it("[P2] EnterPlanMode is allowed without approval in every mode", () => {
    for (const permissionMode of PERMISSION_MODES) {
      for (const planEnabled of [false, true]) {
        expect(decide(enterPlan, mode(permissionMode, planEnabled))).toEqual({
          verdict: { type: "allow" },
          rule: "plan.enter",
        });
      }
    }
  });

  it("[P3] ExitPlanMode outside plan mode is denied with a reason", () => {
    for (const permissionMode of PERMISSION_MODES) {
      const decision = decide(exitPlan, mode(permissionMode, false));
      expect(decision.rule).toBe("plan.exitOutsidePlan");
      expect(decision.verdict).toMatchObject({
        type: "deny",
        reason: expect.stringMatching(/only works while plan mode is on/),
      });
    }
  });

  it("[Q5] tools that ask the user themselves always ask, through their own question, even in yolo", () => {
    for (const permissionMode of PERMISSION_MODES) {
      expect(decide(ask, mode(permissionMode))).toEqual({
        verdict: { type: "ask", by: "tool" },
        rule: "userInteraction",
      });
      expect(decide(exitPlan, mode(permissionMode, true)).verdict).toEqual({
        type: "ask",
        by: "tool",
      });
    }
  });

  it("[Q5] ... unless they are disallowed, and project rules cannot skip their question", () => {
    expect(decide(ask, mode("yolo"), { disallowedTools: ["AskUserQuestion"] })).toMatchObject({
      rule: "disallowed",
      verdict: { type: "deny" },
    });
    const allowAsk = rules({ allow: ["AskUserQuestion"], deny: ["AskUserQuestion"] });
    expect(ruleOf(ask, mode("build"), { rules: allowAsk })).toBe("userInteraction");
  });
});

describe("permission policy: the order of the steps", () => {
  it("disallowed tools come first, from configuration or the project file", () => {
    expect(ruleOf(enterPlan, mode("yolo"), { disallowedTools: ["EnterPlanMode"] })).toBe(
      "disallowed",
    );
    expect(
      ruleOf(read, mode("build"), { rules: rules({ disallowedTools: ["Read"], allow: ["Read"] }) }),
    ).toBe("disallowed");
  });

  it("project deny beats ask, ask beats allow, and allow beats the mode default", () => {
    const all = rules({ deny: ["Write(secrets/**)"], ask: ["Write(src/**)"], allow: ["Write"] });
    const at = (path: string) => ruleOf(write, mode("build"), { rules: all, input: { path } });
    expect(at("secrets/key.txt")).toBe("project.deny");
    expect(at("src/main.ts")).toBe("project.ask");
    expect(at("docs/notes.md")).toBe("project.allow");
    expect(ruleOf(write, mode("yolo"), { rules: rules({ ask: ["Write"] }) })).toBe("project.ask");
  });

  it("a denied call carries a reason the model can read", () => {
    const decision = decide(write, mode("yolo"), { rules: rules({ deny: ["Write"] }) });
    expect(decision.verdict).toEqual({
      type: "deny",
      reason: "the project's rules deny Write here",
    });
  });
});
