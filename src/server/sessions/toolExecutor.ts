import type { ExecutionMode } from "../../protocol/index.ts";
import type { InteractionPort } from "../interactions/port.ts";
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

/** How long a stopped tool may take to report how it ended (Q8) before the turn moves on. */
const STOP_GRACE_MS = 1_000;

export interface ToolCallToRun {
  callId: string;
  name: string;
  input: unknown;
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
}

/**
 * Runs one tool call of a turn: looks the tool up, validates the input, asks for permission
 * when the policy says so, and runs the handler. Every failure becomes an error result the
 * model can read and act on. A tool stopped by the turn's signal still gets to report how it
 * ended; only one that fails or outlasts the grace period escapes as `TurnAborted`.
 */
export class ToolExecutor {
  constructor(private readonly deps: ToolExecutorDeps) {}

  async run(
    sessionId: string,
    call: ToolCallToRun,
    mode: () => ExecutionMode,
    signal: AbortSignal,
    tools: ToolRegistry = this.deps.tools,
  ): Promise<ToolResult> {
    const tool = tools.get(call.name);
    if (!tool) {
      const names = tools.list().map((t) => t.name);
      return failure(
        `There is no tool named "${call.name}". Available tools: ${names.join(", ")}.`,
      );
    }
    const contract = tool as ToolContract<unknown>;
    const parsed = contract.inputSchema.safeParse(call.input);
    if (!parsed.success) {
      const problems = parsed.error.issues.map(
        (issue) =>
          `- ${issue.path.length > 0 ? issue.path.join(".") : "(input)"}: ${issue.message}`,
      );
      return failure(
        `The input for ${call.name} is invalid; fix these fields and call it again:\n${problems.join("\n")}`,
      );
    }
    const input = parsed.data;

    // A7: an answer given before a restart was given under the mode of its time; the answer
    // itself (an approved plan ends plan mode) must not make the re-run call fail.
    const answeredBeforeRestart = this.deps.interactions.answeredBeforeRestart(
      sessionId,
      call.callId,
    );
    const verdict = this.deps.permissions(tool, input, mode());
    if (verdict.type === "deny" && !answeredBeforeRestart) {
      return failure(`${call.name} is not allowed: ${verdict.reason}.`);
    }
    // Q5: a tool that asks the user itself runs; its own question is the asking.
    if (verdict.type === "ask" && verdict.by !== "tool") {
      const refusal = await this.askPermission(sessionId, tool, call, input, signal);
      if (refusal) return refusal;
    }
    let runInput: unknown = input;
    let answeredAutomatically = false;
    if (contract.userStep) {
      const step = await this.askUserStep(sessionId, contract, call, input, signal);
      if (step.type === "refused") return step.result;
      runInput = step.input;
      answeredAutomatically = step.auto;
    }

    const context: ToolContext = {
      ...this.deps.contextFor?.(sessionId),
      sessionId,
      toolCallId: call.callId,
      workspace: this.deps.workspace,
      signal,
      mode,
      answeredBeforeRestart,
      answeredAutomatically,
      askUser: (request) => this.deps.interactions.askQuestions(sessionId, request, signal),
    };
    try {
      return await untilAborted(contract.run(runInput, context), signal, STOP_GRACE_MS);
    } catch (error) {
      if (signal.aborted) throw error;
      return failure(
        `${call.name} failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  /**
   * Q3/Q5: the tool's question is its permission step. The answer comes back as a modify
   * decision carrying the filled input, which is re-validated before the handler sees it. After
   * a restart the same call id finds its stored answer, so the call re-runs from it (A7).
   */
  private async askUserStep(
    sessionId: string,
    contract: ToolContract<unknown>,
    call: ToolCallToRun,
    input: unknown,
    signal: AbortSignal,
  ): Promise<
    { type: "filled"; input: unknown; auto: boolean } | { type: "refused"; result: ToolResult }
  > {
    const step = contract.userStep!;
    let outcome: AskOutcome;
    try {
      outcome = await untilAborted(
        this.deps.interactions.askQuestions(
          sessionId,
          { toolName: step.asker, toolCallId: call.callId, questions: step.questions(input) },
          signal,
        ),
        signal,
        STOP_GRACE_MS,
      );
    } catch (error) {
      if (signal.aborted) throw error;
      const why = error instanceof Error ? error.message : String(error);
      return { type: "refused", result: failure(`${call.name} failed: ${why}`) };
    }
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
    const outcome = await untilAborted(
      this.deps.interactions.askPermission(
        sessionId,
        { toolName: call.name, toolCallId: call.callId, summary, input },
        signal,
      ),
      signal,
      STOP_GRACE_MS,
    );
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

function failure(output: string): ToolResult {
  return { output, isError: true };
}
