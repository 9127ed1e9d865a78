import { stat } from "node:fs/promises";
import { z } from "zod";
import type { ToolContract } from "./contract.ts";
import { hiddenFor } from "./fileAccess.ts";
import { matchFiles, patternEscapes, patternTooCostly } from "./walk.ts";
import { displayPath, resolveInWorkspace } from "./workspacePath.ts";

const MAX_RESULTS = 500;

const GlobInput = z.strictObject({
  pattern: z
    .string()
    .min(1)
    .describe('Glob pattern such as "**/*.ts" or "src/*.json", relative to the search folder.'),
  path: z
    .string()
    .optional()
    .describe("Folder to search in, relative to the workspace root. Omit for the whole workspace."),
});
type GlobInput = z.infer<typeof GlobInput>;

export const globTool: ToolContract<GlobInput> = {
  name: "Glob",
  description:
    "List the files in the workspace whose paths match a glob pattern (`*` within a folder, `**` across folders, `{a,b}` alternatives). " +
    `Returns workspace-relative paths, sorted, at most ${MAX_RESULTS}. node_modules, .git and .zcode are skipped.`,
  inputSchema: GlobInput,
  readOnly: true,
  destructive: false,
  summarize: (input) => (input.path ? `${input.path}/${input.pattern}` : input.pattern),
  async run(input, context) {
    if (patternEscapes(input.pattern)) {
      return {
        output: `The pattern "${input.pattern}" reaches outside the search folder. Use a relative pattern without "..".`,
        isError: true,
      };
    }
    const costly = patternTooCostly(input.pattern);
    if (costly !== undefined) {
      return {
        output: `The pattern "${input.pattern}" has ${costly}; simplify it.`,
        isError: true,
      };
    }
    const base = await resolveInWorkspace(context.workspace, input.path ?? ".");
    const info = await stat(base).catch(() => undefined);
    if (!info?.isDirectory()) {
      return {
        output: `There is no folder at ${displayPath(context.workspace, base)}.`,
        isError: true,
      };
    }
    const hidden = hiddenFor(context, globTool.name);
    const files = (await matchFiles(context.workspace, base, input.pattern, context.signal)).filter(
      (file) => !hidden(file),
    );
    if (files.length === 0) return { output: `No files match ${input.pattern}.` };
    const shown = files.slice(0, MAX_RESULTS).map((file) => displayPath(context.workspace, file));
    const more = files.length - shown.length;
    return {
      output: shown.join("\n") + (more > 0 ? `\n(${more} more not shown; narrow the pattern)` : ""),
    };
  },
};
