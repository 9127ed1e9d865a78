import type { AnyToolContract } from "../tools/contract.ts";
import type { PermissionCheck } from "./decide.ts";
import { decideWithRules } from "./policy.ts";
import {
  addProjectAllowRule,
  NO_RULES,
  type ProjectRules,
  projectRulesReader,
} from "./projectRules.ts";
import { isPlangateSecretPath, isProtectedPath } from "./protectedPaths.ts";
import { callPath, formatRule, pathsOf, ruleMatches } from "./rules.ts";

/** Deny rules of these tools hide a file's content and name from every listing tool (R10). */
const CONTENT_TOOLS = ["Read"];

export interface PermissionServiceOptions {
  /** Absolute real path of the workspace; its `.zcode/permissions.json` holds the rules. */
  workspace: string;
  /** Configuration's `permission.disallowedTools`, on top of the project file's list. */
  disallowedTools?: readonly string[];
  /** Where a broken rules file is reported. */
  warn?: (message: string) => void;
}

/**
 * The permission policy with the project's rules: as they are on disk at every decision (people
 * edit the file by hand), and extended by "Always allow" on an approval card.
 */
export class PermissionService {
  private readonly readRules: () => ProjectRules;

  constructor(private readonly options: PermissionServiceOptions) {
    this.readRules = projectRulesReader(options.workspace);
  }

  readonly check: PermissionCheck = (tool, input, mode) =>
    decideWithRules({
      tool,
      input,
      mode,
      rules: this.rules(),
      workspace: this.options.workspace,
      ...(this.options.disallowedTools ? { disallowedTools: this.options.disallowedTools } : {}),
    }).verdict;

  /**
   * R10: a file Grep or Glob must leave out of what it returns: a deny rule for that tool, or
   * for Read, matches it as found or at its real path; plangate's own secrets are always out.
   */
  readonly hiddenFrom = (toolName: string): ((absolutePath: string) => boolean) => {
    const deny = this.rules().deny;
    const names = [toolName, ...CONTENT_TOOLS];
    return (absolutePath) => {
      const paths = pathsOf(this.options.workspace, absolutePath);
      if (paths.some(isPlangateSecretPath)) return true;
      return names.some((name) =>
        deny.some((rule) => paths.some((path) => ruleMatches(rule, name, path))),
      );
    };
  };

  /**
   * "Always allow": saves a project allow rule for the tool, narrowed to the call's path if it
   * has one. Never for `.zcode/` or `.git/` (R9): those ask every time, so a rule would lie.
   */
  async allowAlways(tool: AnyToolContract, input: unknown): Promise<string | undefined> {
    const path = callPath(this.options.workspace, input);
    if (path !== undefined && isProtectedPath(path)) return undefined;
    const rule = formatRule(
      path === undefined ? { tool: tool.name } : { tool: tool.name, glob: path },
    );
    await addProjectAllowRule(this.options.workspace, rule);
    return rule;
  }

  private rules(): ProjectRules {
    try {
      return this.readRules();
    } catch (error) {
      // A broken file must not stop every tool; without rules each mode's own default applies.
      (this.options.warn ?? console.warn)(
        `plangate: ignoring project permission rules: ${(error as Error).message}`,
      );
      return NO_RULES;
    }
  }
}
