import { z } from "zod";
import { writeFileAtomic } from "./atomicWrite.ts";
import type { ToolContract } from "./contract.ts";
import { locateInWorkspace } from "./workspacePath.ts";

export const WRITE_TOOL = "Write";

const WriteInput = z.strictObject({
  path: z.string().min(1).describe("File path relative to the workspace root."),
  content: z.string().describe("The complete new content of the file."),
});
type WriteInput = z.infer<typeof WriteInput>;

function lineCount(text: string): number {
  if (text === "") return 0;
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

/**
 * Not destructive: it changes only files inside the workspace, which version control can
 * restore; "destructive" is kept for actions that cannot be taken back. Overwriting still
 * needs approval in build mode like every non-read-only tool, and plan mode refuses it.
 */
export const writeTool: ToolContract<WriteInput> = {
  name: WRITE_TOOL,
  description:
    "Create a file in the workspace, or replace an existing file's whole content. Missing folders are created. " +
    "To change part of an existing file, prefer Edit, and Read a file before overwriting it. " +
    "Paths are relative to the workspace root.",
  inputSchema: WriteInput,
  readOnly: false,
  destructive: false,
  summarize: (input) => input.path,
  async run(input, context) {
    const { path, shown, info: existing } = await locateInWorkspace(context.workspace, input.path);
    if (existing?.isDirectory()) {
      return { output: `${shown} is a directory; give the path of a file.`, isError: true };
    }
    await writeFileAtomic(path, input.content, context.signal);
    const lines = lineCount(input.content);
    const verb = existing ? "Replaced the content of" : "Created";
    return { output: `${verb} ${shown} (${lines} ${lines === 1 ? "line" : "lines"}).` };
  },
};
