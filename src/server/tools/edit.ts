import { readFile } from "node:fs/promises";
import { z } from "zod";
import { writeFileAtomic } from "./atomicWrite.ts";
import type { ToolContract } from "./contract.ts";
import { isSecretFile } from "./fileAccess.ts";
import { looksBinary } from "./fileText.ts";
import { secretRefusal } from "./read.ts";
import { locateInWorkspace } from "./workspacePath.ts";

export const EDIT_TOOL = "Edit";

const EditInput = z.strictObject({
  path: z.string().min(1).describe("File path relative to the workspace root."),
  old_string: z
    .string()
    .min(1)
    .describe("The exact text to replace, including indentation and line breaks."),
  new_string: z.string().describe("The text to put in its place."),
  replace_all: z
    .boolean()
    .optional()
    .describe("Replace every occurrence instead of exactly one (default false)."),
});
type EditInput = z.infer<typeof EditInput>;

function occurrences(text: string, part: string): number {
  let count = 0;
  for (let at = text.indexOf(part); at !== -1; at = text.indexOf(part, at + part.length)) count++;
  return count;
}

/** Not destructive, for the same reason as Write: only workspace files, which can be restored. */
export const editTool: ToolContract<EditInput> = {
  name: EDIT_TOOL,
  description:
    "Replace an exact piece of text in an existing workspace file. old_string must match the file character for character " +
    "(whitespace included) and, unless replace_all is set, occur exactly once; include a few surrounding lines to make it unique. " +
    "Read the file first so you copy the text exactly.",
  inputSchema: EditInput,
  readOnly: false,
  destructive: false,
  summarize: (input) => input.path,
  async run(input, context) {
    const { path, shown, info } = await locateInWorkspace(context.workspace, input.path);
    // Whether old_string is found would tell the model a secret piece by piece.
    if (isSecretFile(context.workspace, path))
      return { output: secretRefusal(shown), isError: true };
    if (!info) {
      return { output: `There is no file at ${shown}. Use Write to create it.`, isError: true };
    }
    if (info.isDirectory()) return { output: `${shown} is a directory.`, isError: true };
    const bytes = await readFile(path);
    if (looksBinary(bytes)) {
      return {
        output: `${shown} looks like a binary file; only text files can be edited.`,
        isError: true,
      };
    }
    if (input.old_string === input.new_string) {
      return {
        output: "old_string and new_string are the same, so there is nothing to change.",
        isError: true,
      };
    }
    const text = bytes.toString("utf8");
    const found = occurrences(text, input.old_string);
    if (found === 0) {
      return {
        output: `old_string was not found in ${shown}. Read the file again and copy the text exactly, including whitespace and line breaks.`,
        isError: true,
      };
    }
    if (found > 1 && !input.replace_all) {
      return {
        output: `old_string occurs ${found} times in ${shown}. Add surrounding lines so it matches exactly once, or set replace_all to change every occurrence.`,
        isError: true,
      };
    }
    const updated = input.replace_all
      ? text.split(input.old_string).join(input.new_string)
      : text.replace(input.old_string, () => input.new_string);
    await writeFileAtomic(path, updated, context.signal);
    const count = input.replace_all ? found : 1;
    return {
      output: `Edited ${shown}: replaced ${count} ${count === 1 ? "occurrence" : "occurrences"}.`,
    };
  },
};
