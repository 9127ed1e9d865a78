import { z } from "zod";
import type { TodoItem } from "../../protocol/index.ts";
import { todoWriteResultText } from "../todos/todoText.ts";
import type { ToolContext, ToolContract, ToolResult } from "./contract.ts";

export const TODO_WRITE_TOOL = "TodoWrite";

const DESCRIPTION = `Keep a todo list for the work of this session, so you and the user can see what is done and what is left.

Use it for work with several steps, when the user hands you a list of things to do, or when a plan was approved and you start carrying it out. Skip it for a single small step or a plain question.

How it works:
- Send the complete list every time. It replaces the previous list as a whole: anything you leave out is gone.
- Items have no ids; their order is the order you send.
- Each item has content (what to do, as a short imperative sentence), a status (pending, in_progress or completed) and a priority (high, medium or low).
- Keep exactly one item in_progress while you work: mark it in_progress before you start it and completed as soon as it is finished, before moving on. Do not batch several completions into one later update.
- Only mark an item completed when it is really done; if you are blocked or it failed, keep it in_progress or add an item for what has to happen next.
- Drop items that turned out to be unnecessary.

The result shows the old list, the new list and how many items have each status.`;

const TodoInput = z
  .object({
    content: z
      .string()
      .min(1)
      .max(2000)
      .refine((text) => text.trim() !== "", "content must not be blank")
      .describe("What to do, as a short imperative sentence."),
    status: z.enum(["pending", "in_progress", "completed"]).describe("Where the item stands."),
    priority: z.enum(["high", "medium", "low"]).describe("How much the item matters."),
  })
  .strict();

/** T1: the whole list, no ids; "one in_progress" is guidance, not a rule the schema enforces. */
const TodoWriteInput = z
  .object({
    todos: z
      .array(TodoInput)
      .max(200)
      .describe(
        "The complete, updated list; it replaces the old one. Keep at most one item in_progress.",
      ),
  })
  .strict();
type TodoWriteInput = z.infer<typeof TodoWriteInput>;

export const NO_TODO_LIST =
  "This host keeps no todo list for the session, so the list could not be used.";

/** T1, T2, T4: a session control that only touches the session's own list. */
export const todoWriteTool: ToolContract<TodoWriteInput> = {
  name: TODO_WRITE_TOOL,
  description: DESCRIPTION,
  inputSchema: TodoWriteInput,
  readOnly: true,
  destructive: false,
  allowedInPlanMode: true,
  summarize: (input) => `${input.todos.length} todo item${input.todos.length === 1 ? "" : "s"}`,
  async run(input, context: ToolContext): Promise<ToolResult> {
    if (context.todos === undefined) return { output: NO_TODO_LIST, isError: true };
    const todos: TodoItem[] = input.todos.map(({ content, status, priority }) => ({
      content,
      status,
      priority,
    }));
    return { output: todoWriteResultText(context.todos.write(todos)) };
  },
};
