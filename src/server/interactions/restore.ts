import type {
  CountdownState,
  InteractionOutcome,
  InteractionRequest,
  QuestionDraft,
  StoredEntry,
} from "../../protocol/index.ts";

/** A7: what one session's log says about its interactions. */
export interface LoggedInteractions {
  requests: Map<string, InteractionRequest>;
  /** Request ids in the order they were asked. */
  order: string[];
  countdowns: Map<string, CountdownState>;
  drafts: Map<string, QuestionDraft>;
  /** The first resolution of each interaction; later ones were refused (R3). */
  outcomes: Map<string, InteractionOutcome>;
  finishedCalls: Set<string>;
  lateAnswered: Set<string>;
}

export function readInteractions(entries: readonly StoredEntry[]): LoggedInteractions {
  const read: LoggedInteractions = {
    requests: new Map(),
    order: [],
    countdowns: new Map(),
    drafts: new Map(),
    outcomes: new Map(),
    finishedCalls: new Set(),
    lateAnswered: new Set(),
  };
  for (const { entry } of entries) {
    switch (entry.kind) {
      case "interaction.requested":
        read.requests.set(entry.request.interactionId, entry.request);
        read.order.push(entry.request.interactionId);
        break;
      case "interaction.countdown":
        read.countdowns.set(entry.interactionId, entry.countdown);
        break;
      case "interaction.draft":
        read.drafts.set(entry.interactionId, entry.draft);
        break;
      case "interaction.resolved":
        if (!read.outcomes.has(entry.interactionId)) {
          read.outcomes.set(entry.interactionId, entry.outcome);
        }
        break;
      case "tool.result":
        read.finishedCalls.add(entry.callId);
        break;
      case "user.message":
        if (entry.lateAnswerFor !== undefined) read.lateAnswered.add(entry.lateAnswerFor);
        break;
      default:
        break;
    }
  }
  return read;
}
