import { readFileSync } from "node:fs";
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

const ScriptedToolCall = z.strictObject({
  name: z.string().min(1),
  /** Anything the tool accepts, or does not: scenarios may test invalid input on purpose. */
  input: z.unknown().default({}),
});

const ScriptedStep = z
  .strictObject({
    /** Markdown the model "writes"; `{{user}}` and `{{result}}` are filled in. */
    say: z.string().optional(),
    tools: z.array(ScriptedToolCall).optional(),
    /** Stream `say` in chunks this many ms apart (demos of streaming and of cancelling). */
    delayMs: z.number().int().min(0).max(60_000).optional(),
    /** V3: a `plan` input gets the lines the user's comments point at revised to them. */
    reviseCommented: z.boolean().optional(),
  })
  .refine((step) => step.say !== undefined || (step.tools?.length ?? 0) > 0, {
    message: "a step needs `say`, `tools`, or both",
  });

const ScriptedTurn = z.strictObject({
  /**
   * Case-insensitive regular expression tested against the user's message; omit for a
   * fallback. It runs in linear time (R12), so lookaround and backreferences are refused.
   */
  match: z.string().refine(validRegex, { message: "not a valid regular expression" }).optional(),
  steps: z.array(ScriptedStep).min(1),
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

/** Reads and checks a scenario file (YAML, or JSON, which YAML also reads). */
export function loadScenario(file: string): Scenario {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new ModelError("scenario", `Cannot read scenario ${file}: ${(error as Error).message}`);
  }
  return parseScenario(text, file);
}

export function parseScenario(text: string, file: string): Scenario {
  let data: unknown;
  try {
    data = parseYaml(text);
  } catch (error) {
    throw new ModelError(
      "scenario",
      `Scenario ${file} is not valid YAML: ${(error as Error).message}`,
    );
  }
  const parsed = Scenario.safeParse(data);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) =>
        `  at ${issue.path.length > 0 ? issue.path.join(".") : "(top level)"}: ${issue.message}`,
    );
    throw new ModelError("scenario", `Scenario ${file} is invalid:\n${problems.join("\n")}`);
  }
  return parsed.data;
}
