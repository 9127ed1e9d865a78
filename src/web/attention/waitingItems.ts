import { headlineOf } from "../../protocol/index.ts";
import type { WebData } from "../store/types.ts";
import { type WaitingItem, waitingKindOf } from "./attentionState.ts";

/**
 * Everything waiting for the user across sessions. A session this tab follows is described
 * interaction by interaction; for the others only their summary's count is known.
 */
export function waitingItems(state: Pick<WebData, "views" | "sessions">): WaitingItem[] {
  const items: WaitingItem[] = [];
  for (const view of Object.values(state.views)) {
    for (const pending of view.pending) {
      const item: WaitingItem = {
        key: pending.request.interactionId,
        sessionId: view.sessionId,
        kind: waitingKindOf(pending.request),
        countdown: pending.countdown,
        text: headlineOf(pending.request),
      };
      items.push(item);
    }
  }
  for (const session of Object.values(state.sessions)) {
    if (session.id in state.views) continue;
    for (let index = 1; index <= session.pendingInteractions; index++) {
      items.push({
        key: `${session.id}:waiting:${index}`,
        sessionId: session.id,
        kind: "unknown",
        countdown: { phase: "ineligible" },
      });
    }
  }
  return items;
}
