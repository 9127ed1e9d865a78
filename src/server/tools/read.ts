import { open } from "node:fs/promises";
import { z } from "zod";
import type { ToolContract } from "./contract.ts";
import { isSecretFile, redactorFor } from "./fileAccess.ts";
import { clip, looksBinary, readSample, splitLines } from "./fileText.ts";
import { locateInWorkspace } from "./workspacePath.ts";

const MAX_FILE_BYTES = 5 * 1024 * 1024;
const DEFAULT_LINES = 2000;
const MAX_LINE_CHARS = 2000;
const MAX_OUTPUT_CHARS = 200_000;

const ReadInput = z.strictObject({
  path: z.string().min(1).describe("File path relative to the workspace root."),
  offset: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe("First line to return, counting from 1. Omit to start at the top."),
  limit: z
    .number()
    .int()
    .min(1)
    .max(10_000)
    .optional()
    .describe(`How many lines to return (default ${DEFAULT_LINES}).`),
});
type ReadInput = z.infer<typeof ReadInput>;

export const readTool: ToolContract<ReadInput> = {
  name: "Read",
  description:
    "Show the contents of one text file in the workspace, each line prefixed with its line number. " +
    `Long files come back ${DEFAULT_LINES} lines at a time; use offset and limit to page through them. ` +
    "Paths are relative to the workspace root. Use Glob to find files and Grep to search inside them.",
  inputSchema: ReadInput,
  readOnly: true,
  destructive: false,
  summarize: (input) => input.path,
  async run(input, context) {
    const { path, shown, info } = await locateInWorkspace(context.workspace, input.path);
    if (isSecretFile(context.workspace, path))
      return { output: secretRefusal(shown), isError: true };
    if (!info) return { output: `There is no file at ${shown}.`, isError: true };
    if (info.isDirectory()) {
      return { output: `${shown} is a directory. Use Glob to list its files.`, isError: true };
    }
    if (info.size > MAX_FILE_BYTES) {
      return {
        output: `${shown} is ${info.size} bytes, too large to read whole. Use Grep to find the part you need.`,
        isError: true,
      };
    }
    const handle = await open(path, "r");
    let text: string;
    try {
      if (looksBinary(await readSample(handle))) {
        return {
          output: `${shown} looks like a binary file; only text files can be read.`,
          isError: true,
        };
      }
      text = await handle.readFile("utf8");
    } finally {
      await handle.close();
    }
    const lines = splitLines((await redactorFor(context))(text));
    if (lines.length === 0) return { output: `${shown} is empty.` };
    const start = (input.offset ?? 1) - 1;
    if (start >= lines.length) {
      return {
        output: `${shown} has only ${lines.length} lines; offset ${start + 1} is past the end.`,
        isError: true,
      };
    }
    const end = Math.min(lines.length, start + (input.limit ?? DEFAULT_LINES));
    const width = String(end).length;
    let output = "";
    let last = start;
    for (let index = start; index < end; index++) {
      const row = `${String(index + 1).padStart(width)}\t${clip(lines[index]!, MAX_LINE_CHARS)}\n`;
      if (output.length + row.length > MAX_OUTPUT_CHARS) break;
      output += row;
      last = index + 1;
    }
    if (last < lines.length || start > 0) {
      output += `(lines ${start + 1}–${last} of ${lines.length}${last < lines.length ? `; continue with offset ${last + 1}` : ""})\n`;
    }
    return { output };
  },
};

/** R9: the model-facing refusal for plangate's own files. */
export function secretRefusal(shown: string): string {
  return `${shown} holds plangate's own settings and keys; no tool reads it.`;
}
