import type { SessionEntry, StoredEntry, TodoItem } from "../../protocol/index.ts";
import { TODO_WRITE_TOOL } from "../tools/todoWrite.ts";
import { numberedTodoList } from "./todoText.ts";

/** T5: assistant messages that must pass, since both the last TodoWrite and the last reminder. */
export const TODO_REMINDER_INTERVAL = 10;

/** Marks the stored notice so later counts can find the last reminder. */
export const TODO_REMINDER_MARK = "[Todo reminder]";

export interface AssistantMessageCounts {
  sinceTodoWrite: number;
  sinceReminder: number;
}

export interface TodoReminderRequest {
  readonly sessionId: string;
  /** Assistant messages since the last TodoWrite call and since the last reminder. */
  readonly counts: AssistantMessageCounts;
  readonly toolNames: readonly string[];
  /** The model is being asked to go on after running out of output tokens. */
  readonly continuation: boolean;
}

/** The turn loop's hook: the notice to store before the next model call, if one is due. */
export type TodoReminderHook = (request: TodoReminderRequest) => string | undefined;

export function isTodoReminder(entry: SessionEntry): boolean {
  return (
    entry.kind === "user.message" &&
    entry.synthetic === true &&
    entry.text.startsWith(TODO_REMINDER_MARK)
  );
}

/**
 * Counts assistant messages (one per model reply, whether it wrote text, called tools or
 * both) since the last TodoWrite call and since the last reminder, entry by entry. User
 * messages never count.
 */
export class AssistantMessageCounter {
  private readonly counts: AssistantMessageCounts = { sinceTodoWrite: 0, sinceReminder: 0 };
  private previous: SessionEntry["kind"] | undefined;

  add(entry: SessionEntry): void {
    const startsReply =
      entry.kind === "assistant.message" ||
      (entry.kind === "tool.call" &&
        this.previous !== "assistant.message" &&
        this.previous !== "tool.call");
    if (startsReply) {
      this.counts.sinceTodoWrite += 1;
      this.counts.sinceReminder += 1;
    }
    if (entry.kind === "tool.call" && entry.name === TODO_WRITE_TOOL)
      this.counts.sinceTodoWrite = 0;
    if (isTodoReminder(entry)) this.counts.sinceReminder = 0;
    this.previous = entry.kind;
  }

  current(): AssistantMessageCounts {
    return { ...this.counts };
  }
}

export function assistantMessagesSince(entries: readonly StoredEntry[]): AssistantMessageCounts {
  const counter = new AssistantMessageCounter();
  for (const { entry } of entries) counter.add(entry);
  return counter.current();
}

export function todoReminderDue(request: Omit<TodoReminderRequest, "sessionId">): boolean {
  if (request.continuation || !request.toolNames.includes(TODO_WRITE_TOOL)) return false;
  const { sinceTodoWrite, sinceReminder } = request.counts;
  return sinceTodoWrite >= TODO_REMINDER_INTERVAL && sinceReminder >= TODO_REMINDER_INTERVAL;
}

export function todoReminderText(todos: readonly TodoItem[]): string {
  const list =
    todos.length === 0
      ? "The list is empty at the moment."
      : `This is the list as it stands:\n${numberedTodoList(todos)}`;
  return [
    `${TODO_REMINDER_MARK} The todo list has not been touched for a while. If the work in ` +
      "progress has several steps, it may help to bring the list up to date with TodoWrite; " +
      "if a list does not fit this task, ignore this note. Keep working on what the user asked " +
      "and do not mention this note to them.",
    "",
    list,
  ].join("\n");
}

/** The hook the server gives the turn loop, reading the list from the todo table. */
export function createTodoReminder(todos: {
  read(sessionId: string): TodoItem[];
}): TodoReminderHook {
  return (request) =>
    todoReminderDue(request) ? todoReminderText(todos.read(request.sessionId)) : undefined;
}
