import type { ExecutionMode, PermissionMode } from "../../protocol/index.ts";
import { exitPlanModeOutsidePlanReason, planModeDeniedReason } from "../plan/planTexts.ts";
import type { AnyToolContract } from "../tools/contract.ts";
import type { PermissionVerdict } from "./decide.ts";
import { NO_RULES, type ProjectRules } from "./projectRules.ts";
import { isPlangateSecretPath, isProtectedPath } from "./protectedPaths.ts";
import { callPaths, ruleMatches, type ToolRule } from "./rules.ts";

export const ENTER_PLAN_MODE_TOOL = "EnterPlanMode";
export const EXIT_PLAN_MODE_TOOL = "ExitPlanMode";
/** What edit (and auto) mode allows without asking. */
export const FILE_EDIT_TOOLS: ReadonlySet<string> = new Set(["Write", "Edit"]);
/** Tools bridged from MCP servers are named `mcp__<server>__<tool>`. */
const MCP_PREFIX = "mcp__";

/** Which step of the policy made the decision; tests pin the order with it. */
export type PermissionRule =
  | "disallowed"
  | "plan.enter"
  | "plan.exitOutsidePlan"
  | "userInteraction"
  | "protected.secret"
  | "project.deny"
  | "project.ask"
  | "plan.allowed"
  | "plan.denied"
  | "protected.write"
  | "project.allow"
  | `mode.${PermissionMode}`;

export interface PermissionDecision {
  verdict: PermissionVerdict;
  rule: PermissionRule;
}

export interface PermissionRequest {
  tool: AnyToolContract;
  input: unknown;
  mode: ExecutionMode;
  /** The project's rules (`.zcode/permissions.json`); none when absent. */
  rules?: ProjectRules;
  /** Tools switched off by configuration, on top of the project file's list. */
  disallowedTools?: readonly string[];
  /** For path rules; without it path-narrowed rules never match. */
  workspace?: string;
}

const allow = (rule: PermissionRule): PermissionDecision => ({ verdict: { type: "allow" }, rule });
const ask = (rule: PermissionRule): PermissionDecision => ({ verdict: { type: "ask" }, rule });
const deny = (rule: PermissionRule, reason: string): PermissionDecision => ({
  verdict: { type: "deny", reason },
  rule,
});

/**
 * The one ordered decision for a tool call; the first step that speaks decides.
 *
 * 1. disallowed tools (configuration and the project file) are denied;
 * 2. plan transitions (P2, P3): EnterPlanMode is allowed without approval, ExitPlanMode outside
 *    plan mode is denied. This comes before step 3 because ExitPlanMode asks the user itself,
 *    and outside plan there is nothing for it to ask about;
 * 3. tools that ask the user themselves (AskUserQuestion, ExitPlanMode) always ask, in every
 *    mode (Q5), through their own question rather than an approval card;
 * 4. R9: plangate's own secrets (`.zcode/` apart from the rules and plans) are never read;
 * 5. project deny rules, then project ask rules; path rules match the path as written and
 *    its real path (R10): deny and ask when either matches, allow only when both do;
 * 6. plan policy (P5): read-only non-destructive tools, non-destructive MCP tools and session
 *    controls declaring `allowedInPlanMode` run; everything else is denied, not asked, whatever
 *    the permission mode underneath (yolo included, P1);
 * 7. R9: writes into `.zcode/` or `.git/` ask, whatever the mode (yolo included) or the
 *    allow rules say, so the agent cannot rewrite its own rules or the repository's hooks;
 * 8. project allow rules;
 * 9. the permission mode's default: build asks before anything that is not read-only; edit and
 *    auto also let file edits (Write, Edit) through; yolo allows everything.
 */
export function decideWithRules(request: PermissionRequest): PermissionDecision {
  const { tool, mode } = request;
  const rules = request.rules ?? NO_RULES;
  const name = tool.name;

  if (rules.disallowedTools.includes(name) || request.disallowedTools?.includes(name)) {
    return deny("disallowed", `${name} is switched off for this project`);
  }

  if (name === ENTER_PLAN_MODE_TOOL) return allow("plan.enter");
  if (name === EXIT_PLAN_MODE_TOOL && !mode.planEnabled) {
    return deny("plan.exitOutsidePlan", exitPlanModeOutsidePlanReason());
  }

  if (tool.requiresUserInteraction)
    return { verdict: { type: "ask", by: "tool" }, rule: "userInteraction" };

  const paths =
    request.workspace === undefined ? undefined : callPaths(request.workspace, request.input);
  if (tool.readOnly && paths?.some(isPlangateSecretPath)) {
    return deny("protected.secret", "plangate keeps its keys and tokens there; no tool reads them");
  }
  const matchesAny = (list: readonly ToolRule[]) =>
    list.some((rule) => (paths ?? [undefined]).some((path) => ruleMatches(rule, name, path)));
  const matchesAll = (list: readonly ToolRule[]) =>
    list.some((rule) => (paths ?? [undefined]).every((path) => ruleMatches(rule, name, path)));
  if (matchesAny(rules.deny)) return deny("project.deny", `the project's rules deny ${name} here`);
  if (matchesAny(rules.ask)) return ask("project.ask");

  if (mode.planEnabled) {
    const harmless = (tool.readOnly || name.startsWith(MCP_PREFIX)) && !tool.destructive;
    if (harmless || tool.allowedInPlanMode) return allow("plan.allowed");
    return deny("plan.denied", planModeDeniedReason(name));
  }

  if (!tool.readOnly && paths?.some(isProtectedPath)) return ask("protected.write");

  if (matchesAll(rules.allow)) return allow("project.allow");

  const modeRule = `mode.${mode.permissionMode}` as const;
  switch (mode.permissionMode) {
    case "yolo":
      return allow(modeRule);
    case "edit":
    case "auto":
      return tool.readOnly || FILE_EDIT_TOOLS.has(name) ? allow(modeRule) : ask(modeRule);
    case "build":
      return tool.readOnly ? allow(modeRule) : ask(modeRule);
  }
}
