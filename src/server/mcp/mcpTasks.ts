import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { StoredEntry } from "../../protocol/index.ts";
import { heardOf, heardText } from "./agentInbox.ts";
import { WAITING_FOR_USER } from "./fastCalls.ts";
import type { McpToolResult } from "./mcpTools.ts";
import type { CallFollower, WaitingCall } from "./waitingCalls.ts";

/** The `_meta` key that ties a result to its task (MCP 2025-11-25 tasks). */
export const RELATED_TASK_META = "io.modelcontextprotocol/related-task";

/**
 * What the bridge offers: task-augmented `tools/call`, polled with tasks/get, listed with
 * tasks/list, and tasks/cancel.
 */
export const TASK_CAPABILITIES = { list: {}, cancel: {}, requests: { tools: { call: {} } } };

/** tasks/list answers in pages of this many. */
export const TASKS_PER_PAGE = 100;

/** A finished task stays readable this long after it ends, in memory and, after a restart, from the log. */
export const TASK_KEEP_MS = 60 * 60 * 1000;

/** However many tasks wait (up to MAX_POLL_MS), the polls they are asked for stay under this many a second. */
const POLLS_PER_SECOND = 200;
/** A person's answer reaches a polling agent within a second, while few tasks wait. */
export const MIN_POLL_MS = 1_000;
const MAX_POLL_MS = 30_000;
/**
 * Ended tasks kept for one agent at most, however fast it makes and cancels them: past this the
 * oldest are forgotten early (a hostile agent cannot fill the server's memory for an hour).
 */
const ENDED_PER_SESSION = 1_000;

export type TaskStatus = "working" | "completed" | "cancelled";

/** What tasks/get (and the call that made the task) tells the agent. */
export type TaskView = {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  /** Null while the person has not answered: a question may wait for hours. */
  ttl: number | null;
  pollInterval?: number;
};

/**
 * One MCP task: a waiting call of ours that its agent polls instead of holding a request open.
 * Named by the call's `tool.call` entry, so a restart finds it again in the log.
 */
export class AgentTask implements CallFollower {
  status: TaskStatus = "working";
  /** What tasks/result answers once the task has ended. */
  result: CallToolResult | undefined;
  updatedAt: number;
  call: WaitingCall | undefined;

  constructor(
    readonly taskId: string,
    readonly sessionId: string,
    readonly createdAt: number,
    private readonly tasks: AgentTasks,
  ) {
    this.updatedAt = createdAt;
  }

  callEnded(result: McpToolResult | undefined, error: unknown): void {
    this.tasks.ended(this, result, error);
  }

  get finished(): boolean {
    return this.status !== "working";
  }

  /** A working task awaits its call as an open request would (B3: a cancel elsewhere keeps it). */
  get listening(): boolean {
    return this.status === "working";
  }
}

/** A task that ended at or before `cutoff`: no longer kept, so neither read nor listed. */
const endedBefore = (task: AgentTask, cutoff: number) =>
  task.status !== "working" && task.updatedAt <= cutoff;

/** Where a task sits in tasks/list's order. */
type TaskPlace = Pick<AgentTask, "createdAt" | "taskId">;

const byCreation = (a: TaskPlace, b: TaskPlace) =>
  a.createdAt - b.createdAt || (a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : 0);

/**
 * One page of tasks/list: the tasks after the cursor's, and the cursor of the page's last task
 * when more follow. Undefined for a cursor this server did not give. The cursor names a task's
 * place, not an index, so tasks made or forgotten between pages shift nothing.
 */
export function taskPage(
  tasks: readonly AgentTask[],
  cursor: string | undefined,
  perPage = TASKS_PER_PAGE,
): { page: AgentTask[]; nextCursor?: string } | undefined {
  let from = 0;
  if (cursor !== undefined) {
    const place = placeOf(cursor);
    if (!place) return undefined;
    while (from < tasks.length && byCreation(tasks[from]!, place) <= 0) from += 1;
  }
  const page = tasks.slice(from, from + perPage);
  const last = page.at(-1);
  return from + perPage < tasks.length && last
    ? { page, nextCursor: Buffer.from(`${last.createdAt}:${last.taskId}`).toString("base64url") }
    : { page };
}

function placeOf(cursor: string): TaskPlace | undefined {
  const text = Buffer.from(cursor, "base64url").toString();
  const colon = text.indexOf(":");
  const createdAt = Number(text.slice(0, colon));
  return colon > 0 && Number.isSafeInteger(createdAt) && colon < text.length - 1
    ? { createdAt, taskId: text.slice(colon + 1) }
    : undefined;
}

/** The text a cancelled task answers tasks/result with. */
const CANCELLED: CallToolResult = {
  content: [{ type: "text", text: "The agent cancelled this task; its question was withdrawn." }],
  isError: true,
};

/**
 * MCP tasks of the bridge's waiting calls, by task id. A task follows its call as data, holds no
 * request, and keeps its result TASK_KEEP_MS after it ends.
 */
export class AgentTasks {
  private readonly tasks = new Map<string, AgentTask>();
  /** Working tasks by plangate session (R12 caps them as it caps waiting requests). */
  private readonly workingBySession = new Map<string, number>();
  private working = 0;
  /** Ended tasks still kept, by plangate session. */
  private readonly endedBySession = new Map<string, number>();
  private readonly minPollMs: number;
  private readonly endedPerSession: number;

  /** `finish`: the call's result (or why it failed) as the agent gets it. */
  constructor(
    private readonly now: () => number,
    private readonly finish: (
      task: AgentTask,
      result: McpToolResult | undefined,
      error: unknown,
    ) => CallToolResult,
    limits: { minPollMs?: number | undefined; endedPerSession?: number } = {},
  ) {
    this.minPollMs = limits.minPollMs ?? MIN_POLL_MS;
    this.endedPerSession = limits.endedPerSession ?? ENDED_PER_SESSION;
  }

  /** The task of a waiting call: one per call, whichever request asked for it. */
  track(sessionId: string, call: WaitingCall): AgentTask {
    const known = this.tasks.get(call.callId);
    if (known) return known;
    const task = new AgentTask(call.callId, sessionId, this.now(), this);
    this.tasks.set(task.taskId, task);
    this.count(sessionId, 1);
    task.call = call;
    call.waiters += 1;
    call.follow(task);
    return task;
  }

  /** A task that ended before this start, read back from the session log. */
  restore(
    taskId: string,
    sessionId: string,
    createdAt: number,
    endedAt: number,
    result: CallToolResult,
  ): AgentTask {
    const task = new AgentTask(taskId, sessionId, createdAt, this);
    task.status = "completed";
    task.result = result;
    task.updatedAt = endedAt;
    this.tasks.set(taskId, task);
    this.keepEnded(sessionId);
    return task;
  }

  /** The task, if it belongs to that plangate session: another agent's task is not found. */
  get(taskId: string, sessionId: string): AgentTask | undefined {
    const task = this.tasks.get(taskId);
    return task?.sessionId === sessionId ? task : undefined;
  }

  /** The session's tasks still kept, oldest first (tasks/list). */
  listIn(sessionId: string): AgentTask[] {
    const cutoff = this.now() - TASK_KEEP_MS;
    const listed: AgentTask[] = [];
    for (const task of this.tasks.values()) {
      if (task.sessionId === sessionId && !endedBefore(task, cutoff)) listed.push(task);
    }
    return listed.sort(byCreation);
  }

  workingIn(sessionId: string): number {
    return this.workingBySession.get(sessionId) ?? 0;
  }

  /** @internal its call ended: the task keeps what the agent gets. */
  ended(task: AgentTask, result: McpToolResult | undefined, error: unknown): void {
    const call = task.call;
    task.call = undefined;
    if (call) call.waiters -= 1;
    if (task.status !== "working") return;
    task.status = "completed";
    task.result = this.finish(task, result, error);
    task.updatedAt = this.now();
    this.count(task.sessionId, -1);
    this.keepEnded(task.sessionId);
  }

  /**
   * tasks/cancel: the task ends at once; the call it waits on is returned for withdrawing unless
   * a request still awaits it (B3).
   */
  cancel(task: AgentTask): WaitingCall | undefined {
    const call = task.call;
    const withdraw = call && !call.awaitedBesides(task) ? call : undefined;
    // No longer among its call's waiters; it still hears the call end, and ignores it.
    task.call = undefined;
    if (call) call.waiters -= 1;
    task.status = "cancelled";
    task.result = CANCELLED;
    task.updatedAt = this.now();
    this.count(task.sessionId, -1);
    this.keepEnded(task.sessionId);
    return withdraw;
  }

  view(task: AgentTask): TaskView {
    const ended = task.status !== "working";
    return {
      taskId: task.taskId,
      status: task.status,
      ...(ended ? {} : { statusMessage: WAITING_FOR_USER }),
      createdAt: new Date(task.createdAt).toISOString(),
      lastUpdatedAt: new Date(task.updatedAt).toISOString(),
      ttl: ended ? task.updatedAt + TASK_KEEP_MS - task.createdAt : null,
      ...(ended ? {} : { pollInterval: this.pollInterval() }),
    };
  }

  /** Longer as more tasks wait, so their polls together stay under POLLS_PER_SECOND. */
  pollInterval(): number {
    const spread = Math.ceil((this.working * 1000) / POLLS_PER_SECOND);
    return Math.min(MAX_POLL_MS, Math.max(this.minPollMs, spread));
  }

  /** Forgets tasks that ended more than TASK_KEEP_MS ago. */
  expire(): void {
    const cutoff = this.now() - TASK_KEEP_MS;
    for (const [taskId, task] of this.tasks) {
      if (endedBefore(task, cutoff)) this.forget(taskId, task);
    }
  }

  /** One more ended task of the session; past its share, its oldest ended ones go. */
  private keepEnded(sessionId: string): void {
    const kept = (this.endedBySession.get(sessionId) ?? 0) + 1;
    this.endedBySession.set(sessionId, kept);
    if (kept <= this.endedPerSession) return;
    // A tenth below the share, so the scan comes once per many ended tasks, not each one.
    let over = kept - Math.floor(this.endedPerSession * 0.9);
    for (const [taskId, task] of this.tasks) {
      if (over === 0) break;
      if (task.sessionId === sessionId && task.status !== "working") {
        this.forget(taskId, task);
        over -= 1;
      }
    }
  }

  private forget(taskId: string, task: AgentTask): void {
    this.tasks.delete(taskId);
    const kept = (this.endedBySession.get(task.sessionId) ?? 1) - 1;
    if (kept > 0) this.endedBySession.set(task.sessionId, kept);
    else this.endedBySession.delete(task.sessionId);
  }

  private count(sessionId: string, delta: number): void {
    this.working += delta;
    const left = this.workingIn(sessionId) + delta;
    if (left > 0) this.workingBySession.set(sessionId, left);
    else this.workingBySession.delete(sessionId);
  }
}

/** How the `tool.call` entries of MCP agents' calls are named. */
export const MCP_CALL_PREFIX = "mcp_";

/** A call of an MCP agent that ended before this start, as its task reads it back. */
export interface EndedCall {
  createdAt: number;
  endedAt: number;
  isError: boolean;
  output: string;
  structured: Record<string, unknown> | undefined;
  /** B7: what the user wrote since the result before it, which the agent heard with this one. */
  heard: string;
}

/** What a session's log tells of its MCP agent's tasks. */
export interface LoggedTasks {
  /** The MCP calls that ended since `since`, by call id: their tasks' results. */
  ended: Map<string, EndedCall>;
  /** The calls the agent made as tasks, ended or not (B3: tasks/list names them). */
  madeAsTasks: Set<string>;
}

/**
 * `keepEnded`: of the ended tasks, only the newest this many are named, as AgentTasks keeps no
 * more per session (an agent that made thousands in the hour lists no more after a restart).
 */
export function loggedTasks(
  entries: readonly StoredEntry[],
  since: number,
  keepEnded = ENDED_PER_SESSION,
): LoggedTasks {
  const madeAt = new Map<string, number>();
  const ended = new Map<string, EndedCall>();
  const madeAsTasks = new Set<string>();
  // As AgentInbox counts: a result carries what was written after the result before it.
  let written: string[] = [];
  for (const { at, entry } of entries) {
    const heard = heardOf(entry);
    if (heard !== undefined) written.push(heard);
    if (entry.kind === "tool.call" && entry.callId.startsWith(MCP_CALL_PREFIX)) {
      madeAt.set(entry.callId, at);
      if (entry.task) madeAsTasks.add(entry.callId);
    } else if (entry.kind === "tool.result") {
      if (at <= since) madeAsTasks.delete(entry.callId);
      else if (madeAt.has(entry.callId)) {
        ended.set(entry.callId, {
          createdAt: madeAt.get(entry.callId) as number,
          endedAt: at,
          isError: entry.isError,
          output: entry.output,
          structured: entry.structured,
          heard: heardText(written),
        });
      }
      written = [];
    }
  }
  let endedTooMany = -keepEnded;
  for (const callId of madeAsTasks) if (ended.has(callId)) endedTooMany += 1;
  for (const callId of madeAsTasks) {
    if (endedTooMany <= 0) break;
    if (ended.has(callId)) {
      madeAsTasks.delete(callId);
      endedTooMany -= 1;
    }
  }
  return { ended, madeAsTasks };
}
