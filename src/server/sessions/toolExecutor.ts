import type { ExecutionMode } from "../../protocol/index.ts";
import { toAskOutcome, toPermissionOutcome } from "../interactions/outcomes.ts";
import type { InteractionPort, PermissionOutcome } from "../interactions/port.ts";
import type { PermissionCheck } from "../permissions/decide.ts";
import type {
  AnyToolContract,
  AskOutcome,
  ToolContext,
  ToolContextExtras,
  ToolContract,
  ToolResult,
} from "../tools/contract.ts";
import type { ToolRegistry } from "../tools/registry.ts";
import { untilAborted } from "./abortable.ts";
import type { LoggedStep } from "./callSteps.ts";
import { SharedExtras } from "./sharedExtras.ts";
import {
  type AnswerRunner,
  type CallEnd,
  type CallRecorder,
  UserStepCall,
} from "./userStepCall.ts";

/** How long a stopped tool may take to report how it ended (Q8) before the turn moves on. */
const STOP_GRACE_MS = 1_000;

export interface ToolCallToRun {
  callId: string;
  name: string;
  input: unknown;
  /** The model's arguments could not be read: the call is answered with this, not run. */
  inputError?: string;
}

export interface ToolExecutorDeps {
  tools: ToolRegistry;
  interactions: InteractionPort;
  permissions: PermissionCheck;
  workspace: string;
  /** Host capabilities for a session's tools (model catalog, todos, other sessions). */
  contextFor?: (sessionId: string) => ToolContextExtras;
  /** "Always allow" on an approval card: remember the permission (a project allow rule). */
  rememberAllow?: (tool: AnyToolContract, input: unknown) => Promise<unknown>;
  /** A7: the logged resolution of the call's permission step, while the call has no result. */
  stepOf?: (sessionId: string, callId: string) => LoggedStep | undefined;
}

/**
 * Runs one tool call of a turn: looks the tool up, validates the input, asks for permission
 * when the policy says so, and runs the handler. Every failure becomes an error result the
 * model can read and act on. A tool stopped by the turn's signal still gets to report how it
 * ended; only one that fails or outlasts the grace period escapes as `TurnAborted`.
 */
export class ToolExecutor implements AnswerRunner {
  private readonly extras: SharedExtras | undefined;

  constructor(private readonly deps: ToolExecutorDeps) {
    this.extras = deps.contextFor && new SharedExtras(deps.contextFor);
  }

  run(
    sessionId: string,
    call: ToolCallToRun,
    mode: () => ExecutionMode,
    signal: AbortSignal,
    tools: ToolRegistry = this.deps.tools,
  ): Promise<ToolResult> {
    return new Promise<ToolResult>((resolve, reject) => {
      this.runTo(sessionId, call, mode, signal, tools, { ended: resolve, failed: reject });
    });
  }

  /**
   * As run, telling `end`, after `recorder` has the result when one is given. A call whose tool
   * asks the user waits as one UserStepCall the registry holds; `end` is told synchronously when
   * the call fails before it runs.
   */
  runTo(
    sessionId: string,
    call: ToolCallToRun,
    mode: () => ExecutionMode,
    signal: AbortSignal,
    tools: ToolRegistry,
    end: CallEnd,
    recorder?: CallRecorder,
  ): void {
    const finish = (result: ToolResult | undefined, error?: unknown) =>
      finishCall(sessionId, call.callId, call.name, signal, end, recorder, result, error);
    if (call.inputError !== undefined) {
      finish(failure(call.inputError));
      return;
    }
    const tool = tools.get(call.name);
    if (!tool) {
      const names = tools.list().map((t) => t.name);
      finish(
        failure(`There is no tool named "${call.name}". Available tools: ${names.join(", ")}.`),
      );
      return;
    }
    const contract = tool as ToolContract<unknown>;
    const parsed = contract.inputSchema.safeParse(call.input);
    if (!parsed.success) {
      const problems = parsed.error.issues.map(
        (issue) =>
          `- ${issue.path.length > 0 ? issue.path.join(".") : "(input)"}: ${issue.message}`,
      );
      finish(
        failure(
          `The input for ${call.name} is invalid; fix these fields and call it again:\n${problems.join("\n")}`,
        ),
      );
      return;
    }
    this.extras?.acquire(sessionId);
    const context = this.contextOf(sessionId, call.callId, signal, mode);
    const step = this.stepOf(sessionId, tool, call, parsed.data, mode, signal);
    if (step === ASK_USER) {
      const waiting = new UserStepCall(
        this,
        sessionId,
        contract,
        call.callId,
        parsed.data,
        mode,
        signal,
        end,
        recorder,
      );
      this.askUser(waiting, context);
      return;
    }
    const name = call.name;
    step
      .then(
        (resolved) => this.afterStep(sessionId, contract, name, resolved, context, signal),
        (error: unknown) => {
          this.extras?.release(sessionId);
          throw error;
        },
      )
      .then(
        (result) => finish(result),
        (error: unknown) => finish(undefined, error),
      );
  }

  /** The context a call's tool sees; rebuilt after an answer, not kept while it waits. */
  private contextOf(
    sessionId: string,
    toolCallId: string,
    signal: AbortSignal,
    mode: () => ExecutionMode,
  ): ToolContext {
    return {
      ...this.extras?.of(sessionId),
      sessionId,
      toolCallId,
      workspace: this.deps.workspace,
      signal,
      mode,
    };
  }

  /**
   * A7: a call re-run after a restart whose step was resolved before it runs from that
   * resolution; it was the call's permission, given under the mode of its time. Otherwise the
   * policy's verdict, then the approval card, or ASK_USER for the tool's own question (Q5).
   */
  private stepOf(
    sessionId: string,
    tool: AnyToolContract,
    call: ToolCallToRun,
    input: unknown,
    mode: () => ExecutionMode,
    signal: AbortSignal,
  ): Promise<StepResult> | typeof ASK_USER {
    try {
      const contract = tool as ToolContract<unknown>;
      const logged = this.deps.stepOf?.(sessionId, call.callId);
      if (logged?.kind === "question" && contract.userStep) {
        return Promise.resolve(this.fill(contract, input, toAskOutcome(logged.outcome)));
      }
      if (logged?.kind === "permission" && !contract.userStep) {
        return this.loggedPermission(tool, call, input, toPermissionOutcome(logged.outcome));
      }
      const verdict = this.deps.permissions(tool, input, mode());
      if (verdict.type === "deny") {
        return Promise.resolve({
          type: "refused",
          result: failure(`${call.name} is not allowed: ${verdict.reason}.`),
        });
      }
      if (contract.userStep) return ASK_USER;
      // Q5: a tool that asks the user itself runs; its own question is the asking.
      if (verdict.type === "ask" && verdict.by !== "tool") {
        return this.permissionStep(sessionId, tool, call, input, signal);
      }
      return Promise.resolve({ type: "filled", input, auto: false });
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private async loggedPermission(
    tool: AnyToolContract,
    call: ToolCallToRun,
    input: unknown,
    outcome: PermissionOutcome,
  ): Promise<StepResult> {
    return permissionStepOf(await this.permitted(tool, call, input, outcome), input);
  }

  private async permissionStep(
    sessionId: string,
    tool: AnyToolContract,
    call: ToolCallToRun,
    input: unknown,
    signal: AbortSignal,
  ): Promise<StepResult> {
    return permissionStepOf(await this.askPermission(sessionId, tool, call, input, signal), input);
  }

  private async afterStep(
    sessionId: string,
    contract: ToolContract<unknown>,
    name: string,
    step: StepResult,
    context: ToolContext,
    signal: AbortSignal,
  ): Promise<ToolResult> {
    try {
      if (step.type === "refused") return step.result;
      const runContext: ToolContext = { ...context, answeredAutomatically: step.auto };
      try {
        return await untilAborted(contract.run(step.input, runContext), signal, STOP_GRACE_MS);
      } catch (error) {
        if (signal.aborted) throw error;
        return failure(`${name} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    } finally {
      this.extras?.release(sessionId);
    }
  }

  /**
   * Q3/Q5: the tool's question is its permission step. The answer comes back as a modify
   * decision carrying the filled input, which is re-validated before the handler sees it.
   */
  private askUser(call: UserStepCall, context: ToolContext): void {
    const step = call.contract.userStep!;
    try {
      const request = step.request(call.input, context);
      // The registry tells the call when its signal aborts (InteractionPort): no watch of our
      // own (issue 15).
      this.deps.interactions.askQuestionsFor(
        call.sessionId,
        { toolName: step.asker, toolCallId: call.callId, ...request },
        call.signal,
        call,
      );
    } catch (error) {
      this.refuse(call, error);
    }
  }

  /** @internal The call's question has its outcome: it fills the input, and the handler runs. */
  answered(call: UserStepCall, outcome: AskOutcome): void {
    let step: StepResult;
    try {
      step = this.fill(call.contract, call.input, outcome);
    } catch (error) {
      this.extras?.release(call.sessionId);
      finishWaiting(call, undefined, error);
      return;
    }
    const context = this.contextOf(call.sessionId, call.callId, call.signal, call.mode);
    this.afterStep(call.sessionId, call.contract, call.name, step, context, call.signal).then(
      (result) => finishWaiting(call, result),
      (error: unknown) => finishWaiting(call, undefined, error),
    );
  }

  /** The question could not be asked: an error result, or the stop when the turn was stopped. */
  private refuse(call: UserStepCall, error: unknown): void {
    this.extras?.release(call.sessionId);
    if (call.signal.aborted) {
      finishWaiting(call, undefined, error);
      return;
    }
    const why = error instanceof Error ? error.message : String(error);
    finishWaiting(call, failure(`${call.name} failed: ${why}`));
  }

  private fill(contract: ToolContract<unknown>, input: unknown, outcome: AskOutcome): StepResult {
    const step = contract.userStep!;
    const decision = step.decide(input, outcome);
    if (decision.type === "deny") return { type: "refused", result: decision.result };
    const filled = step.validateFilled(decision.input);
    if (!filled.ok) return { type: "refused", result: failure(filled.message) };
    return {
      type: "filled",
      input: filled.input,
      auto: outcome.type === "answered" && outcome.auto,
    };
  }

  /** Returns the error result when the user did not allow the call, undefined when allowed. */
  private async askPermission(
    sessionId: string,
    tool: AnyToolContract,
    call: ToolCallToRun,
    input: unknown,
    signal: AbortSignal,
  ): Promise<ToolResult | undefined> {
    const summary = (tool as ToolContract<unknown>).summarize?.(input) ?? call.name;
    const outcome = await this.deps.interactions.askPermission(
      sessionId,
      { toolName: call.name, toolCallId: call.callId, summary, input },
      signal,
    );
    return this.permitted(tool, call, input, outcome);
  }

  private async permitted(
    tool: AnyToolContract,
    call: ToolCallToRun,
    input: unknown,
    outcome: PermissionOutcome,
  ): Promise<ToolResult | undefined> {
    if (outcome.type === "aborted") {
      return failure(`${call.name} did not run: no permission was given (${outcome.reason}).`);
    }
    if (outcome.decision === "deny") {
      return failure(`The user denied permission to run ${call.name}. Do not retry it unchanged.`);
    }
    if (outcome.decision === "allow_always" && this.deps.rememberAllow) {
      // The call is allowed either way; a rule that cannot be saved only means asking again later.
      await this.deps.rememberAllow(tool, input).catch((error: unknown) => {
        console.error(`could not remember the permission for ${call.name}:`, error);
      });
    }
    return undefined;
  }
}

/** stepOf's answer for a tool that asks the user itself: the call waits as a UserStepCall. */
const ASK_USER = Symbol("ask the user");

type StepResult =
  | { type: "filled"; input: unknown; auto: boolean }
  | { type: "refused"; result: ToolResult };

/**
 * Tells the call's end its result, or why it has none; with a recorder the result is written
 * down first (a failure as the result the recorder makes of it), and a refused write is the end.
 */
function finishCall(
  sessionId: string,
  callId: string,
  name: string,
  signal: AbortSignal,
  end: CallEnd,
  recorder: CallRecorder | undefined,
  result: ToolResult | undefined,
  error?: unknown,
): void {
  if (!recorder) {
    if (result) end.ended(result);
    else end.failed(error);
    return;
  }
  const recorded = result ?? recorder.resultOfFailure(name, error, signal);
  try {
    recorder.record(sessionId, { callId, name }, recorded);
  } catch (refused) {
    end.failed(refused);
    return;
  }
  end.ended(recorded);
}

function finishWaiting(call: UserStepCall, result: ToolResult | undefined, error?: unknown): void {
  const { sessionId, callId, name, signal, end, recorder } = call;
  finishCall(sessionId, callId, name, signal, end, recorder, result, error);
}

function failure(output: string): ToolResult {
  return { output, isError: true };
}

/** A permission step's result: the refusal, or the input as given. */
function permissionStepOf(refusal: ToolResult | undefined, input: unknown): StepResult {
  return refusal ? { type: "refused", result: refusal } : { type: "filled", input, auto: false };
}
