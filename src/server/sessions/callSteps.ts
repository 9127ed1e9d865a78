import type {
  InteractionOutcome,
  InteractionRequest,
  SessionEntry,
  StoredEntry,
} from "../../protocol/index.ts";

/** A7: how a call's permission step (an approval or a Q5 question) was resolved. */
export interface LoggedStep {
  kind: InteractionRequest["kind"];
  outcome: InteractionOutcome;
}

/**
 * A7 + Q5: the resolved permission steps of calls that have no result yet, folded from the log.
 * A call re-run after a restart reads its step here and runs from it (the filled input of a
 * question, the decision of an approval) instead of asking again. Both maps lose their entry
 * when the interaction resolves or the call gets its result.
 */
export class CallSteps {
  /**
   * Interactions still waiting, by kind and id: the call each belongs to. Its id alone, which
   * the entry already holds (issue 15: a record of the two was one more object per call).
   */
  private readonly asking = {
    question: new Map<string, string>(),
    permission: new Map<string, string>(),
  };
  private readonly resolved = new Map<string, LoggedStep>();

  static fromEntries(entries: readonly StoredEntry[]): CallSteps {
    const steps = new CallSteps();
    for (const { entry } of entries) steps.add(entry);
    return steps;
  }

  add(entry: SessionEntry): void {
    switch (entry.kind) {
      case "interaction.requested":
        this.asking[entry.request.kind].set(entry.request.interactionId, entry.request.toolCallId);
        break;
      case "interaction.resolved": {
        // R3: only the first resolution counts; a later one finds nothing waiting.
        for (const kind of ["question", "permission"] as const) {
          const callId = this.asking[kind].get(entry.interactionId);
          if (callId === undefined) continue;
          this.asking[kind].delete(entry.interactionId);
          this.resolved.set(callId, { kind, outcome: entry.outcome });
        }
        break;
      }
      case "tool.result":
        this.resolved.delete(entry.callId);
        break;
      default:
        break;
    }
  }

  /** The call's resolved step, while the call has no result. */
  of(callId: string): LoggedStep | undefined {
    return this.resolved.get(callId);
  }
}
