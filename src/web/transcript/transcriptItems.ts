import type {
  InteractionOutcome,
  InteractionRequest,
  SessionEntry,
  StoredEntry,
} from "../../protocol/index.ts";
import { type DecidedPlan, decidedPlanOf } from "../questions/planDecision.ts";

type EntryOf<K extends SessionEntry["kind"]> = Extract<SessionEntry, { kind: K }>;

/** What the transcript draws, one item per visible entry; tool calls carry their result. */
export type TranscriptItem =
  | { kind: "user"; seq: number; entry: EntryOf<"user.message"> }
  | { kind: "assistant"; seq: number; entry: EntryOf<"assistant.message"> }
  | {
      kind: "tool";
      seq: number;
      call: EntryOf<"tool.call"> | null;
      result: EntryOf<"tool.result"> | null;
    }
  | { kind: "notice"; seq: number; entry: EntryOf<"notice"> }
  | { kind: "turnEnded"; seq: number; entry: EntryOf<"turn.ended"> }
  | { kind: "resolved"; seq: number; entry: EntryOf<"interaction.resolved"> }
  | { kind: "planDecided"; seq: number; decided: DecidedPlan; saved?: { path?: string } }
  | { kind: "planApproved"; seq: number; entry: EntryOf<"plan.approved"> }
  | { kind: "modeChanged"; seq: number; entry: EntryOf<"session.modeChanged"> }
  | { kind: "modelChanged"; seq: number; entry: EntryOf<"session.modelChanged"> };

/**
 * Items are rebuilt on every entry; a decided plan built afresh each time made every memoised
 * PlanDecidedCard on screen render again in the task that shows a new card (issue 15). Entries
 * never change, so the outcome object (with its request) keys the one it decided.
 */
const decidedCache = new WeakMap<
  InteractionOutcome,
  { request: InteractionRequest | undefined; decided: DecidedPlan | null }
>();

function decidedOf(
  request: InteractionRequest | undefined,
  outcome: InteractionOutcome,
): DecidedPlan | null {
  const cached = decidedCache.get(outcome);
  if (cached && cached.request === request) return cached.decided;
  const decided = decidedPlanOf(request, outcome);
  decidedCache.set(outcome, { request, decided });
  return decided;
}

const savedCache = new WeakMap<EntryOf<"plan.approved">, { path?: string }>();

/** The same object for the same entry, for the same reason as `decidedOf`. */
function savedOf(entry: EntryOf<"plan.approved">): { path?: string } {
  let saved = savedCache.get(entry);
  if (!saved) {
    saved = entry.path === undefined ? {} : { path: entry.path };
    savedCache.set(entry, saved);
  }
  return saved;
}

/**
 * Entries that only move state (requests, countdowns, drafts, todos) draw nothing here.
 * A decided plan review becomes one card that carries the plan (W9), and a run of mode
 * switches with nothing between them reads as the last one.
 */
export function transcriptItems(
  entries: readonly StoredEntry[],
  /** Requests known from outside these entries, e.g. a page of history not loaded yet. */
  knownRequests: Readonly<Record<string, InteractionRequest>> = {},
): TranscriptItem[] {
  const results = new Map<string, EntryOf<"tool.result">>();
  const calls = new Set<string>();
  const requests = new Map<string, InteractionRequest>(Object.entries(knownRequests));
  for (const { entry } of entries) {
    if (entry.kind === "tool.result") results.set(entry.callId, entry);
    if (entry.kind === "tool.call") calls.add(entry.callId);
    if (entry.kind === "interaction.requested") {
      requests.set(entry.request.interactionId, entry.request);
    }
  }
  const items: TranscriptItem[] = [];
  for (const { seq, entry } of entries) {
    switch (entry.kind) {
      case "user.message":
        items.push({ kind: "user", seq, entry });
        break;
      case "assistant.message":
        if (entry.text.trim() !== "") items.push({ kind: "assistant", seq, entry });
        break;
      case "tool.call":
        items.push({ kind: "tool", seq, call: entry, result: results.get(entry.callId) ?? null });
        break;
      case "tool.result":
        if (!calls.has(entry.callId)) items.push({ kind: "tool", seq, call: null, result: entry });
        break;
      case "notice":
        items.push({ kind: "notice", seq, entry });
        break;
      case "turn.ended":
        if (entry.reason === "cancelled") items.push({ kind: "turnEnded", seq, entry });
        if (entry.reason === "error") {
          // The error notice just above says what happened: the line only says the turn stopped.
          const last = items.at(-1);
          const repeats = last?.kind === "notice" && last.entry.text === entry.message;
          items.push({ kind: "turnEnded", seq, entry: repeats ? withoutMessage(entry) : entry });
        }
        break;
      case "interaction.resolved": {
        const decided = decidedOf(requests.get(entry.interactionId), entry.outcome);
        if (decided) items.push({ kind: "planDecided", seq, decided });
        else items.push({ kind: "resolved", seq, entry });
        break;
      }
      case "plan.approved": {
        const card = unsavedApproval(items, entry.plan);
        if (card) card.saved = savedOf(entry);
        else items.push({ kind: "planApproved", seq, entry });
        break;
      }
      case "session.modeChanged":
        if (items.at(-1)?.kind === "modeChanged") items.pop();
        items.push({ kind: "modeChanged", seq, entry });
        break;
      case "session.modelChanged":
        items.push({ kind: "modelChanged", seq, entry });
        break;
      default:
        break;
    }
  }
  return items;
}

/** The approval card that a `plan.approved` entry completes with the saved file's path. */
function unsavedApproval(
  items: TranscriptItem[],
  plan: string,
): Extract<TranscriptItem, { kind: "planDecided" }> | undefined {
  for (let index = items.length - 1; index >= 0; index--) {
    const item = items[index];
    if (item?.kind !== "planDecided") continue;
    const fits = item.decided.decision.kind === "approved" && item.decided.plan === plan;
    return fits && item.saved === undefined ? item : undefined;
  }
  return undefined;
}

function withoutMessage(entry: EntryOf<"turn.ended">): EntryOf<"turn.ended"> {
  const { message: _repeated, ...bare } = entry;
  return bare;
}
