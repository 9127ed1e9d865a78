import { z } from "zod";
import { todoReadResultText } from "../todos/todoText.ts";
import type { ToolContract, ToolResult } from "./contract.ts";
import { NO_TODO_LIST } from "./todoWrite.ts";

const DESCRIPTION = `Show the session's current todo list: each item's position, status, content and priority, with a count by status. Takes no input. Use it when you are unsure what is left to do; to change the list, send the whole updated list with TodoWrite.`;

const TodoReadInput = z.object({}).strict();
type TodoReadInput = z.infer<typeof TodoReadInput>;

/** T2/T4: reads the session's own list; allowed in every mode. */
export const todoReadTool: ToolContract<TodoReadInput> = {
  name: "TodoRead",
  description: DESCRIPTION,
  inputSchema: TodoReadInput,
  readOnly: true,
  destructive: false,
  allowedInPlanMode: true,
  async run(_input, context): Promise<ToolResult> {
    if (context.todos === undefined) return { output: NO_TODO_LIST, isError: true };
    return { output: todoReadResultText(context.todos.read()) };
  },
};
