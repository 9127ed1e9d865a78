import { readFileSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { writeFileAtomic } from "../tools/atomicWrite.ts";
import { parseRule, type ToolRule } from "./rules.ts";

/** `<workspace>/.zcode/permissions.json`; see ./README.md for the format. */
export const PROJECT_RULES_FILE = join(".zcode", "permissions.json");

const RuleList = z.array(z.string().min(1)).default([]);

export const ProjectRulesFile = z.strictObject({
  allow: RuleList,
  deny: RuleList,
  ask: RuleList,
  disallowedTools: RuleList,
});
export type ProjectRulesFile = z.infer<typeof ProjectRulesFile>;

export interface ProjectRules {
  allow: ToolRule[];
  deny: ToolRule[];
  ask: ToolRule[];
  disallowedTools: string[];
}

export const NO_RULES: ProjectRules = { allow: [], deny: [], ask: [], disallowedTools: [] };

export class ProjectRulesError extends Error {}

function rulesOf(file: ProjectRulesFile, where: string): ProjectRules {
  const parse = (texts: string[], list: string) =>
    texts.map((text) => {
      const rule = parseRule(text);
      if (!rule) throw new ProjectRulesError(`${where}: "${text}" in ${list} is not a rule`);
      return rule;
    });
  return {
    allow: parse(file.allow, "allow"),
    deny: parse(file.deny, "deny"),
    ask: parse(file.ask, "ask"),
    disallowedTools: file.disallowedTools,
  };
}

function parseFile(text: string, where: string): ProjectRulesFile {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ProjectRulesError(`${where} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = ProjectRulesFile.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ProjectRulesError(
      `${where} is invalid at ${issue?.path.join(".") || "(top level)"}: ${issue?.message}`,
    );
  }
  return parsed.data;
}

/** Reads the project's rules; no file means no rules. Throws ProjectRulesError on a bad file. */
export function readProjectRules(workspace: string): ProjectRules {
  const where = join(workspace, PROJECT_RULES_FILE);
  let text: string;
  try {
    text = readFileSync(where, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return NO_RULES;
    throw new ProjectRulesError(`cannot read ${where}: ${(error as Error).message}`);
  }
  return rulesOf(parseFile(text, where), where);
}

/** The file as it is on disk now: any edit changes its size, mtime or ctime (ns). */
function stampOf(where: string): string | undefined {
  const stat = statSync(where, { throwIfNoEntry: false, bigint: true });
  return stat && `${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
}

/**
 * The project's rules as of each call, read again only when the file changed: every tool call
 * decides with them, and reading, parsing and validating the file (or throwing ENOENT when
 * there is none) cost more than the rest of the decision.
 */
export function projectRulesReader(workspace: string): () => ProjectRules {
  const where = join(workspace, PROJECT_RULES_FILE);
  let last: { stamp: string; rules: ProjectRules } | undefined;
  return () => {
    let stamp: string | undefined;
    try {
      stamp = stampOf(where);
    } catch {
      return readProjectRules(workspace);
    }
    if (stamp === undefined) return NO_RULES;
    if (last?.stamp === stamp) return last.rules;
    const rules = readProjectRules(workspace);
    last = { stamp, rules };
    return rules;
  };
}

/** Adds one allow rule (once), keeping everything else in the file as it was. */
export async function addProjectAllowRule(workspace: string, rule: string): Promise<void> {
  const where = join(workspace, PROJECT_RULES_FILE);
  const text = await readFile(where, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return "{}";
    throw error;
  });
  const file = parseFile(text, where);
  if (file.allow.includes(rule)) return;
  const next = { ...file, allow: [...file.allow, rule] };
  await writeFileAtomic(where, `${JSON.stringify(next, null, 2)}\n`);
}
