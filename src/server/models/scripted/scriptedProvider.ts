import { compileLinear, type LinearRegex } from "../../regex/linearRegex.ts";
import { TODO_REMINDER_MARK } from "../../todos/reminder.ts";
import type {
  ModelMessage,
  ModelProvider,
  ModelRequest,
  ModelResponse,
  ModelToolCall,
} from "../provider.ts";
import { holds, latestFound, sayOf } from "./found.ts";
import { reviseCommentedLines } from "./reviseCommented.ts";
import type { Scenario, ScriptedReaction, ScriptedStep, ScriptedTurn } from "./scenario.ts";

const FALLBACK_DONE = "That is all I have scripted for this message.";
const NO_TURN = "This scenario has no reply scripted for that message.";

/** What the conversation so far says about where the script stands. */
interface Position {
  /** The latest user message; the turn is chosen by it. */
  user: string;
  /** How many model replies the current turn already has: the index of the next step. */
  step: number;
  /** Text of the tool results after the previous reply. */
  result: string;
  /** For each reply of the current turn, the tool results it answered (V7: reactions). */
  resultsBeforeReplies: string[];
  /** For each reply of the current turn, what the latest Glob had found when it was made. */
  foundBeforeReplies: Set<string>[];
  /** What the latest Glob found: steps, calls and words that need a file are played only then. */
  found: Set<string>;
}

/**
 * A keyless, deterministic model that plays a scenario. Its place in the script is read from
 * the conversation alone, never kept in memory, so it picks up where it was after a restart.
 */
export class ScriptedProvider implements ModelProvider {
  private read: (() => Scenario) | undefined;
  private loaded: Scenario | undefined;

  /** `scenario` may be a loader, called on the first call (see `createScriptedProvider`). */
  constructor(
    readonly ref: string,
    scenario: Scenario | (() => Scenario),
  ) {
    if (typeof scenario === "function") this.read = scenario;
    else this.loaded = scenario;
  }

  private get scenario(): Scenario {
    this.loaded ??= this.read?.();
    if (!this.loaded) throw new Error(`${this.ref} has no scenario`);
    this.read = undefined;
    return this.loaded;
  }

  async complete(request: ModelRequest): Promise<ModelResponse> {
    throwIfAborted(request.signal);
    const position = positionOf(request.messages);
    const scenario = this.scenario;
    const turn = pickTurn(scenario.turns, position.user);
    const step: ScriptedStep | undefined = turn && nextStepOf(turn, position);
    if (!step) {
      const text = turn ? (scenario.done ?? FALLBACK_DONE) : NO_TURN;
      request.onText?.(text);
      return { text, toolCalls: [], stopReason: "end" };
    }

    const fill = (value: string) =>
      value.replace(/\{\{\s*(user|result)\s*\}\}/g, (_, name: string) =>
        name === "user" ? position.user : position.result,
      );
    const text = fill(sayOf(step.say, position.found));
    await stream(text, step.delayMs, request);
    const calls = (step.tools ?? []).filter((call) => holds(call, position.found));
    const toolCalls: ModelToolCall[] = calls.map((call, index) => ({
      id: `call_${request.messages.length}_${index}`,
      name: call.name,
      input: step.reviseCommented
        ? revisePlanInput(fillStrings(call.input, fill), position.user, step.reviseCommented)
        : fillStrings(call.input, fill),
    }));
    return { text, toolCalls, stopReason: toolCalls.length > 0 ? "tool_use" : "end" };
  }
}

/** How runtime notes begin: plan reminders and compaction summaries, and todo reminders. */
const RUNTIME_NOTE_STARTS = ["<system-reminder>", TODO_REMINDER_MARK];

/** Runtime notes are not the user speaking, so they neither pick a turn nor restart its steps. */
function withoutRuntimeNotes(messages: readonly ModelMessage[]): ModelMessage[] {
  return messages.filter(
    (message) =>
      message.role !== "user" ||
      !RUNTIME_NOTE_STARTS.some((start) => message.content.startsWith(start)),
  );
}

/**
 * V7: a reaction answers the results it matches; the turn's own steps count only the other
 * replies. A step whose files were not found is passed over, as it was when each reply was made.
 */
function nextStepOf(turn: ScriptedTurn, position: Position): ScriptedStep | undefined {
  const reaction = reactionTo(turn, position.result);
  if (reaction) return reaction;
  let next = 0;
  position.resultsBeforeReplies.forEach((result, reply) => {
    if (!reactionTo(turn, result)) {
      next = playable(turn.steps, next, position.foundBeforeReplies[reply]!) + 1;
    }
  });
  return turn.steps[playable(turn.steps, next, position.found)];
}

function playable(steps: readonly ScriptedStep[], from: number, found: Set<string>): number {
  let index = from;
  while (index < steps.length && !holds(steps[index]!, found)) index++;
  return index;
}

function reactionTo(turn: ScriptedTurn, result: string): ScriptedReaction | undefined {
  if (result === "") return undefined;
  return turn.reactions?.find((reaction) => matcherOf(reaction.result).test(result));
}

export function positionOf(all: readonly ModelMessage[]): Position {
  const messages = withoutRuntimeNotes(all);
  let lastUser = -1;
  for (let index = messages.length - 1; index >= 0; index--) {
    if (messages[index]!.role === "user") {
      lastUser = index;
      break;
    }
  }
  const user = lastUser >= 0 ? (messages[lastUser] as { content: string }).content : "";
  const since = messages.slice(lastUser + 1);
  const resultsBeforeReplies: string[] = [];
  const foundBeforeReplies: Set<string>[] = [];
  let results: string[] = [];
  since.forEach((message, index) => {
    if (message.role === "tool") results.push(message.content);
    else if (message.role === "assistant") {
      resultsBeforeReplies.push(results.join("\n\n"));
      foundBeforeReplies.push(latestFound(messages.slice(0, lastUser + 1 + index)));
      results = [];
    }
  });
  return {
    user,
    step: resultsBeforeReplies.length,
    result: results.join("\n\n"),
    resultsBeforeReplies,
    foundBeforeReplies,
    found: latestFound(messages),
  };
}

const matchers = new Map<string, LinearRegex>();

/** R12: a linear-time match, so a long message cannot stall the server in a matcher. */
function matcherOf(source: string): LinearRegex {
  let matcher = matchers.get(source);
  if (!matcher) {
    matcher = compileLinear(source, { caseInsensitive: true });
    matchers.set(source, matcher);
  }
  return matcher;
}

function pickTurn(turns: readonly ScriptedTurn[], user: string): ScriptedTurn | undefined {
  return turns.find((turn) => turn.match === undefined || matcherOf(turn.match).test(user));
}

function revisePlanInput(input: unknown, user: string, wording: true | string): unknown {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return input;
  const { plan } = input as { plan?: unknown };
  if (typeof plan !== "string") return input;
  const note = typeof wording === "string" ? wording : undefined;
  return { ...input, plan: reviseCommentedLines(plan, user, note) };
}

function fillStrings(value: unknown, fill: (text: string) => string): unknown {
  if (typeof value === "string") return fill(value);
  if (Array.isArray(value)) return value.map((item) => fillStrings(item, fill));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, fillStrings(item, fill)]),
    );
  }
  return value;
}

async function stream(text: string, delayMs: number | undefined, request: ModelRequest) {
  if (!text) return;
  if (!delayMs) {
    request.onText?.(text);
    return;
  }
  const chunks = text.match(/\S+\s*|\s+/g) ?? [text];
  for (let index = 0; index < chunks.length; index += 3) {
    await sleep(delayMs, request.signal);
    request.onText?.(chunks.slice(index, index + 3).join(""));
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal));
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw abortError(signal);
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("The model call was cancelled.", "AbortError");
}
