import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { compileLinear } from "../../regex/linearRegex.ts";
import { ModelError } from "../provider.ts";

const validRegex = (source: string) => {
  try {
    compileLinear(source, { caseInsensitive: true });
    return true;
  } catch {
    return false;
  }
};

/** Workspace paths, exactly as Glob lists them: one, or several that must all hold. */
const Paths = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);

/**
 * What the latest Glob of the conversation found decides whether a step, a call or a part of
 * what is said is played: `ifFound` needs every path listed, `unlessFound` none of them. So the
 * script reads only files that exist and says only what it saw.
 */
const found = { ifFound: Paths.optional(), unlessFound: Paths.optional() };

const ScriptedToolCall = z.strictObject({
  name: z.string().min(1),
  /** Anything the tool accepts, or does not: scenarios may test invalid input on purpose. */
  input: z.unknown().default({}),
  ...found,
});

/** Markdown, or parts of it joined in order, each kept or dropped by what Glob found. */
const Say = z.union([
  z.string(),
  z.array(z.union([z.string(), z.strictObject({ text: z.string(), ...found })])).min(1),
]);

const stepShape = {
  /** Markdown the model "writes"; `{{user}}` and `{{result}}` are filled in. */
  say: Say.optional(),
  tools: z.array(ScriptedToolCall).optional(),
  /** Stream `say` in chunks this many ms apart (demos of streaming and of cancelling). */
  delayMs: z.number().int().min(0).max(60_000).optional(),
  /**
   * V3: a `plan` input gets the lines the user's comments point at revised to them: `true`, or
   * the note appended to each such line (its separator included), in the scenario's
   * language, with `{{comment}}` in it.
   */
  reviseCommented: z.union([z.boolean(), z.string().includes("{{comment}}")]).optional(),
};
const saysOrCalls = {
  check: (step: { say?: unknown; tools?: unknown[] | undefined }) =>
    step.say !== undefined || (step.tools?.length ?? 0) > 0,
  message: "a step needs `say`, `tools`, or both",
};

const ScriptedStep = z
  .strictObject({ ...stepShape, ...found })
  .refine(saysOrCalls.check, { message: saysOrCalls.message });

const Regex = z.string().refine(validRegex, { message: "not a valid regular expression" });

/**
 * V7: a step played whenever the tool results just before the model's call match `result`,
 * in place of the turn's next step, which still comes after it. A reaction can play any
 * number of times (a second question about the plan gets a second answer).
 */
const ScriptedReaction = z
  .strictObject({ ...stepShape, result: Regex })
  .refine(saysOrCalls.check, { message: saysOrCalls.message });

const ScriptedTurn = z.strictObject({
  /**
   * Case-insensitive regular expression tested against the user's message; omit for a
   * fallback. It runs in linear time (R12), so lookaround and backreferences are refused.
   */
  match: Regex.optional(),
  steps: z.array(ScriptedStep).min(1),
  reactions: z.array(ScriptedReaction).optional(),
});

export const Scenario = z.strictObject({
  description: z.string().optional(),
  turns: z.array(ScriptedTurn).min(1),
  /** Said once a turn has played all its steps and the model is called again. */
  done: z.string().optional(),
});
export type Scenario = z.infer<typeof Scenario>;
export type ScriptedTurn = z.infer<typeof ScriptedTurn>;
export type ScriptedStep = z.infer<typeof ScriptedStep>;
export type ScriptedReaction = z.infer<typeof ScriptedReaction>;
export type FoundCondition = { ifFound?: string | string[]; unlessFound?: string | string[] };

/** Reads and checks a scenario file (YAML, or JSON, which YAML also reads). */
export function loadScenario(file: string): Scenario {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new ModelError(
      "scenario",
      { code: "model.scenarioUnreadable", params: { scenario: basename(file) } },
      undefined,
      `Cannot read scenario ${file}: ${(error as Error).message}`,
    );
  }
  return parseScenario(text, file);
}

export function parseScenario(text: string, file: string): Scenario {
  let data: unknown;
  try {
    data = parseYaml(text);
  } catch (error) {
    throw invalid(file, `Scenario ${file} is not valid YAML: ${(error as Error).message}`);
  }
  const parsed = Scenario.safeParse(data);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) =>
        `  at ${issue.path.length > 0 ? issue.path.join(".") : "(top level)"}: ${issue.message}`,
    );
    throw invalid(file, `Scenario ${file} is invalid:\n${problems.join("\n")}`);
  }
  return parsed.data;
}

/** The transcript names the file only; its problems go to whoever starts the server (W2). */
function invalid(file: string, problems: string): ModelError {
  return new ModelError(
    "scenario",
    { code: "model.scenarioInvalid", params: { scenario: basename(file) } },
    undefined,
    problems,
  );
}
