import { z } from "zod/mini";

/** T1: one todo; the whole list is always sent and replaces the old one. */
export const TodoItem = z.strictObject({
  content: z.string().check(z.minLength(1)),
  status: z.enum(["pending", "in_progress", "completed"]),
  priority: z.enum(["high", "medium", "low"]),
});
export type TodoItem = z.infer<typeof TodoItem>;
