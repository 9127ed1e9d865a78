import type { z } from "zod";
import type {
  AskUserQuestionItem,
  ExecutionMode,
  PlanRevision,
  QuestionAnswers,
} from "../../protocol/index.ts";
import type { ModelCatalog } from "../models/catalog.ts";
import type { ModelProvider } from "../models/provider.ts";
import type { SessionMaterialSource } from "../sessionContext/source.ts";
import type { SessionTodos } from "../todos/todoService.ts";

/** What a question asked through the interaction service came back with (Q3, Q8, A3). */
export type AskOutcome =
  | { type: "answered"; answers: QuestionAnswers; auto: boolean }
  | { type: "cancelled" }
  | { type: "aborted"; reason: string };

/** The session capabilities a tool handler may use; later features add to it. */
export interface ToolContext {
  readonly sessionId: string;
  /** The model's id for the call being run. */
  readonly toolCallId?: string;
  /** Absolute, real path of the workspace; file tools stay inside it (R4). */
  readonly workspace: string;
  readonly signal: AbortSignal;
  readonly mode: () => ExecutionMode;
  /** A3: the answers filled into this call's input came from an expired countdown. */
  readonly answeredAutomatically?: boolean;
  /** The session's model ref (`provider/model`, maybe `$level`), for ListModels' `[current]`. */
  readonly currentModel?: () => string;
  /** The host's model catalog (M2); absent when the host offers none. */
  readonly catalog?: ModelCatalog;
  /** This session's todo list (T2); the table is the tools' source of truth. */
  readonly todos?: SessionTodos;
  /** Other persisted sessions, read as background material (M4). */
  readonly otherSessions?: SessionMaterialSource;
  /** A real model a tool may ask for help (M4 extraction); absent when none is available. */
  readonly helperModel?: () => ModelProvider | undefined;
  /**
   * P4: switches plan mode through the session's one mode-change path (stored first, then
   * applied, then broadcast) and returns the mode in force; throws when it cannot be stored.
   */
  readonly setPlanMode?: (enabled: boolean) => ExecutionMode;
  /** V5: sets the whole mode through the same path (an approve option picks the permission mode). */
  readonly setExecutionMode?: (mode: ExecutionMode) => ExecutionMode;
  /** V7: the agent's own words, written into its transcript (an MCP agent's answer to a question). */
  readonly sayToUser?: (markdown: string) => void;
  /** P9: the text joins the running turn as a real user message, after this call's result. */
  readonly steerUserMessage?: (text: string) => void;
  /**
   * P8: records the approved plan (and where it was saved) in the session log; `fresh` (V5)
   * has the conversation before it compacted.
   */
  readonly recordPlanApproved?: (plan: string, path: string | undefined, fresh?: boolean) => void;
  /** X4: the revision a plan review asked by this call would be, from the session log. */
  readonly planRevision?: (toolCallId: string) => PlanRevision;
  /** R10: which files a listing or search tool leaves out (deny rules, plangate's secrets). */
  readonly hiddenFrom?: (toolName: string) => (absolutePath: string) => boolean;
  /** R9: plangate's own secret values (keys, the access token), blanked out of tool output. */
  readonly secrets?: () => Promise<readonly string[]>;
}

/** What the host adds to a tool's context for one session; the executor merges it in. */
export type ToolContextExtras = Partial<
  Pick<
    ToolContext,
    | "currentModel"
    | "catalog"
    | "todos"
    | "otherSessions"
    | "helperModel"
    | "setPlanMode"
    | "setExecutionMode"
    | "steerUserMessage"
    | "sayToUser"
    | "recordPlanApproved"
    | "planRevision"
    | "hiddenFrom"
    | "secrets"
  >
>;

export interface ToolResult {
  /** The model-facing text. */
  output: string;
  isError?: boolean;
  /** End the turn right after this result (P10). */
  endTurn?: boolean;
  /** B1: what an MCP tool returns as `structuredContent`, by its output schema. */
  structured?: Record<string, unknown>;
}

/** Q5: what the permission step decides for a tool whose question is its permission. */
export type UserStepDecision =
  | { type: "modify"; input: unknown }
  | { type: "deny"; result: ToolResult };

export type FilledInputCheck<RunInput> =
  | { ok: true; input: RunInput }
  | { ok: false; message: string };

/** What a user step puts to the user; a plan review also carries its revision (X4). */
export interface UserStepRequest {
  questions: AskUserQuestionItem[];
  planRevision?: PlanRevision;
}

/**
 * Q3/Q5: the executor asks these questions as the call's permission step; an answer comes back
 * as a modify decision carrying the filled input, which is re-validated before the handler runs.
 * The answer is in the log, so after a restart the call re-runs from it without asking again.
 */
export interface UserStep<Input, RunInput> {
  /** The asker named on the request; auto-continue (A1) keys on it, whatever the tool's name. */
  readonly asker: string;
  request(input: Input, context: ToolContext): UserStepRequest;
  decide(input: Input, outcome: AskOutcome): UserStepDecision;
  validateFilled(input: unknown): FilledInputCheck<RunInput>;
}

/** A tool: its model-facing contract, its permission flags and its handler. */
export interface ToolContract<Input = unknown, RunInput = Input> {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: z.ZodType<Input>;
  /** Reads only; never changes the workspace or the outside world. */
  readonly readOnly: boolean;
  readonly destructive: boolean;
  /** Always asks the user, in every permission mode (Q5). */
  readonly requiresUserInteraction?: boolean;
  /** A session control that plan mode allows although it is not read-only (P5). */
  readonly allowedInPlanMode?: boolean;
  /** Q5: present when the tool's permission step is a question to the user. */
  readonly userStep?: UserStep<Input, RunInput>;
  /** The command or path shown on an approval card. */
  summarize?(input: Input): string;
  /** Runs with the model's input, or with the filled input when the tool has a user step. */
  run(input: RunInput, context: ToolContext): Promise<ToolResult>;
}

export type AnyToolContract = ToolContract<never, never> | ToolContract<unknown>;
