import type { ExecutionMode } from "../../protocol/index.ts";
import type { QuestionAsker } from "../interactions/outcomes.ts";
import type { AskOutcome, ToolContract, ToolResult } from "../tools/contract.ts";

/** Told how a call ended, by the executor; a promise's resolvers fit, and so does plain data. */
export interface CallEnd {
  ended(result: ToolResult): void;
  failed(error: unknown): void;
}

/**
 * X1: writes a call's result down before its caller hears of it (an agent's call over MCP). One
 * per session manager, not one per call: a waiting call keeps it as one field (issue 15).
 */
export interface CallRecorder {
  /** Throws when the log refuses the result. */
  record(sessionId: string, call: { callId: string; name: string }, result: ToolResult): void;
  /** The result a call that ended without one is recorded with. */
  resultOfFailure(name: string, error: unknown, signal: AbortSignal): ToolResult;
}

/** What a call waiting on its question is handed back to once the user has answered. */
export interface AnswerRunner {
  answered(call: UserStepCall, outcome: AskOutcome): void;
}

/**
 * Q3/Q5: a call whose tool asks the user, while it waits: one plain object the registry tells
 * of the outcome, not a chain of promises, reactions and closures (≈1.5 KB per waiting call,
 * issue 15). It keeps the call's id and parsed input, not the call: the input it came with
 * would be one more copy of the question.
 */
export class UserStepCall implements QuestionAsker {
  constructor(
    private readonly runner: AnswerRunner,
    readonly sessionId: string,
    readonly contract: ToolContract<unknown>,
    readonly callId: string,
    readonly input: unknown,
    readonly mode: () => ExecutionMode,
    readonly signal: AbortSignal,
    readonly end: CallEnd,
    readonly recorder: CallRecorder | undefined,
  ) {}

  /** The tool's name, which is the call's: tools are found by it. */
  get name(): string {
    return this.contract.name;
  }

  heard(outcome: AskOutcome): void {
    // A turn later, as a promise reaction would run: the registry tells askers from inside its
    // own bookkeeping, which the handler's writes must not interleave with.
    queueMicrotask(() => this.runner.answered(this, outcome));
  }
}
