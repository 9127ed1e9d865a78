import { open, stat } from "node:fs/promises";
import { z } from "zod";
import { compileLinear, type LinearRegex } from "../regex/linearRegex.ts";
import type { ToolContract } from "./contract.ts";
import { hiddenFor, isSecretFile, redactorFor } from "./fileAccess.ts";
import { clip, looksBinary, readSample, splitLines } from "./fileText.ts";
import { secretRefusal } from "./read.ts";
import { matchFiles, patternEscapes, patternTooCostly } from "./walk.ts";
import { displayPath, resolveInWorkspace } from "./workspacePath.ts";

const MAX_FILE_BYTES = 2 * 1024 * 1024;
const DEFAULT_MATCHES = 100;
const MAX_LINE_CHARS = 300;

const GrepInput = z.strictObject({
  pattern: z
    .string()
    .min(1)
    .max(1_000)
    .describe(
      "Regular expression to look for in each line (JavaScript syntax without lookaround or backreferences).",
    ),
  glob: z
    .string()
    .optional()
    .describe('Only search files matching this glob, e.g. "**/*.ts". Default: every file.'),
  path: z
    .string()
    .optional()
    .describe(
      "File or folder to search, relative to the workspace root. Default: the whole workspace.",
    ),
  caseInsensitive: z.boolean().optional().describe("Ignore letter case."),
  maxMatches: z
    .number()
    .int()
    .min(1)
    .max(500)
    .optional()
    .describe(`Stop after this many matching lines (default ${DEFAULT_MATCHES}).`),
});
type GrepInput = z.infer<typeof GrepInput>;

export const grepTool: ToolContract<GrepInput> = {
  name: "Grep",
  description:
    "Search the text files of the workspace for lines matching a regular expression. " +
    "Each hit comes back as `path:line: text`. Narrow the search with glob or path; binary files, " +
    "node_modules, .git and .zcode are skipped.",
  inputSchema: GrepInput,
  readOnly: true,
  destructive: false,
  summarize: (input) => input.pattern,
  async run(input, context) {
    let regex: LinearRegex;
    try {
      regex = compileLinear(input.pattern, { caseInsensitive: input.caseInsensitive ?? false });
    } catch (error) {
      return {
        output: `The pattern is not a valid regular expression: ${(error as Error).message}`,
        isError: true,
      };
    }
    if (input.glob !== undefined && patternEscapes(input.glob)) {
      return {
        output: `The glob "${input.glob}" reaches outside the search folder.`,
        isError: true,
      };
    }
    const costly = input.glob === undefined ? undefined : patternTooCostly(input.glob);
    if (costly !== undefined) {
      return { output: `The glob "${input.glob}" has ${costly}; simplify it.`, isError: true };
    }
    const base = await resolveInWorkspace(context.workspace, input.path ?? ".");
    const info = await stat(base).catch(() => undefined);
    if (!info)
      return {
        output: `There is nothing at ${displayPath(context.workspace, base)}.`,
        isError: true,
      };
    const shown = displayPath(context.workspace, base);
    if (!info.isDirectory() && isSecretFile(context.workspace, base)) {
      return { output: secretRefusal(shown), isError: true };
    }
    const hidden = hiddenFor(context, grepTool.name);
    if (!info.isDirectory() && hidden(base)) {
      return { output: `The project's rules keep ${shown} from being read.`, isError: true };
    }
    const files = info.isDirectory()
      ? (await matchFiles(context.workspace, base, input.glob ?? "**/*", context.signal)).filter(
          (file) => !hidden(file),
        )
      : [base];
    const redact = await redactorFor(context);

    const limit = input.maxMatches ?? DEFAULT_MATCHES;
    const hits: string[] = [];
    for (const file of files) {
      if (context.signal.aborted || hits.length >= limit) break;
      const lines = await readTextLines(file);
      if (!lines) continue;
      for (let index = 0; index < lines.length && hits.length < limit; index++) {
        const line = lines[index]!;
        if (regex.test(line)) {
          hits.push(
            `${displayPath(context.workspace, file)}:${index + 1}: ${clip(redact(line.trim()), MAX_LINE_CHARS)}`,
          );
        }
      }
    }
    if (hits.length === 0) return { output: `No lines match /${input.pattern}/.` };
    const capped =
      hits.length >= limit ? `\n(stopped after ${limit} matches; narrow the search)` : "";
    return { output: hits.join("\n") + capped };
  },
};

async function readTextLines(file: string): Promise<string[] | undefined> {
  const handle = await open(file, "r").catch(() => undefined);
  if (!handle) return undefined;
  try {
    const info = await handle.stat();
    if (info.size > MAX_FILE_BYTES || looksBinary(await readSample(handle))) return undefined;
    return splitLines(await handle.readFile("utf8"));
  } finally {
    await handle.close();
  }
}
