import {
  type AskUserQuestionItem,
  DEFAULT_SETTINGS,
  type SessionEntry,
  SessionEntry as SessionEntrySchema,
  type Settings,
  type StoredEntry,
} from "../../protocol/index.ts";
import type { SessionLog } from "../store/sessionLog.ts";
import type { AskOutcome } from "../tools/contract.ts";
import { FakeClock } from "./fakeClock.ts";
import type { InteractionRegistry, PermissionOutcome } from "./port.ts";
import { createInteractionRegistry } from "./registry.ts";

// Test helpers for the registry: sample questions and an in-memory session log.

/** The registry on a real session log, as the server wires it, with the harness's timings. */
export function registryOnLog(log: SessionLog, clock: FakeClock) {
  let nextId = 0;
  return createInteractionRegistry({
    append: (sessionId, entry) => log.append(sessionId, entry),
    clock,
    settings: () => DEFAULT_SETTINGS,
    timings: { graceMs: GRACE_MS, deadlineMs: DEADLINE_MS },
    newId: () => `int_${++nextId}`,
  });
}

export const GRACE_MS = 1_000;
export const DEADLINE_MS = 5_000;

export const colourQuestion: AskUserQuestionItem = {
  question: "Which colour should the button be?",
  header: "Colour",
  options: [
    { label: "Blue (Recommended)", description: "Matches the brand" },
    { label: "Red", description: "Stands out" },
  ],
  multiSelect: false,
};

export const featuresQuestion: AskUserQuestionItem = {
  question: "Which features should ship first?",
  header: "Features",
  options: [{ label: "Search" }, { label: "Export" }, { label: "Sharing" }],
  multiSelect: true,
};

export const planReviewQuestion: AskUserQuestionItem = {
  question: "Do you approve this plan?",
  header: "Plan",
  detail: "# Plan\n\n1. Do the thing.",
  options: [
    { label: "Approve", description: "Leave plan mode and start" },
    { label: "Refuse", description: "Keep planning" },
  ],
  multiSelect: false,
  intent: { kind: "plan-review", approve: "Approve" },
};

export interface LoggedEntry {
  sessionId: string;
  stored: StoredEntry;
}

export interface Asked<T> {
  interactionId: string;
  promise: Promise<T>;
  /** Every value the promise delivered (at most one, by construction of promises). */
  outcomes: T[];
}

export function createHarness(options: { autoContinue?: boolean; start?: number } = {}) {
  const clock = new FakeClock(options.start);
  const log: LoggedEntry[] = [];
  const seqs = new Map<string, number>();
  let settings: Settings = { ...DEFAULT_SETTINGS, autoContinue: options.autoContinue ?? true };
  let failing = false;
  let nextId = 0;
  const controllers: AbortController[] = [];
  /** S2: what another server wrote, heard before this append (as a shared store catches up). */
  let beforeAppend: ((sessionId: string, entry: SessionEntry) => void) | undefined;

  const registry: InteractionRegistry = createInteractionRegistry({
    append(sessionId, entry) {
      if (failing) throw new Error("disk full");
      const hook = beforeAppend;
      beforeAppend = undefined;
      hook?.(sessionId, entry);
      const seq = (seqs.get(sessionId) ?? 0) + 1;
      seqs.set(sessionId, seq);
      const stored: StoredEntry = { seq, at: clock.now(), entry: SessionEntrySchema.parse(entry) };
      log.push({ sessionId, stored });
      return stored;
    },
    clock,
    settings: () => settings,
    timings: { graceMs: GRACE_MS, deadlineMs: DEADLINE_MS },
    newId: () => `int_${++nextId}`,
  });

  function lastRequestedId(): string {
    const entry = [...log].reverse().find((e) => e.stored.entry.kind === "interaction.requested");
    if (entry?.stored.entry.kind !== "interaction.requested") throw new Error("nothing requested");
    return entry.stored.entry.request.interactionId;
  }

  function track<T>(promise: Promise<T>): Asked<T> {
    const asked: Asked<T> = { interactionId: lastRequestedId(), promise, outcomes: [] };
    promise.then((value) => asked.outcomes.push(value));
    return asked;
  }

  return {
    clock,
    registry,
    log,
    /** Entries of one session (or all), as appended. */
    entries(sessionId?: string): SessionEntry[] {
      return log.filter((e) => !sessionId || e.sessionId === sessionId).map((e) => e.stored.entry);
    },
    stored(sessionId: string): StoredEntry[] {
      return log.filter((e) => e.sessionId === sessionId).map((e) => e.stored);
    },
    kinds(sessionId?: string): string[] {
      return this.entries(sessionId).map((entry) => entry.kind);
    },
    resolvedFor(interactionId: string) {
      return this.entries().filter(
        (entry) => entry.kind === "interaction.resolved" && entry.interactionId === interactionId,
      );
    },
    countdownsFor(interactionId: string) {
      return this.entries().flatMap((entry) =>
        entry.kind === "interaction.countdown" && entry.interactionId === interactionId
          ? [entry.countdown]
          : [],
      );
    },
    setAutoContinue(autoContinue: boolean) {
      settings = { ...settings, autoContinue };
      registry.settingsChanged(settings);
    },
    /** Changes the setting without telling the registry, as a missed notification would. */
    setAutoContinueQuietly(autoContinue: boolean) {
      settings = { ...settings, autoContinue };
    },
    failWrites(flag: boolean) {
      failing = flag;
    },
    /** Runs once, inside the next append, before its entry is written. */
    beforeNextAppend(hook: (sessionId: string, entry: SessionEntry) => void) {
      beforeAppend = hook;
    },
    /** S2: an entry another server wrote reaches this one. */
    observeForeign(sessionId: string, entry: SessionEntry) {
      const seq = (seqs.get(sessionId) ?? 0) + 1;
      seqs.set(sessionId, seq);
      const stored: StoredEntry = { seq, at: clock.now(), entry: SessionEntrySchema.parse(entry) };
      log.push({ sessionId, stored });
      registry.observe?.(sessionId, stored);
    },
    controller(): AbortController {
      const controller = new AbortController();
      controllers.push(controller);
      return controller;
    },
    ask(
      sessionId: string,
      questions: AskUserQuestionItem[] = [colourQuestion],
      toolName = "AskUserQuestion",
      signal: AbortSignal = new AbortController().signal,
      toolCallId = `call_${nextId + 1}`,
    ): Asked<AskOutcome> {
      return track(registry.askQuestions(sessionId, { toolName, toolCallId, questions }, signal));
    },
    askPermission(
      sessionId: string,
      signal: AbortSignal = new AbortController().signal,
      toolCallId = `call_${nextId + 1}`,
    ): Asked<PermissionOutcome> {
      return track(
        registry.askPermission(
          sessionId,
          { toolName: "Bash", toolCallId, summary: "rm -rf build", input: { command: "rm" } },
          signal,
        ),
      );
    },
  };
}

export type Harness = ReturnType<typeof createHarness>;

/** Lets promise callbacks run. */
export function flush(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
