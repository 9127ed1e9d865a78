import {
  type InboxItem,
  type InteractionRequest,
  inboxItemOf,
  inboxOrder,
  type ServerFrame,
} from "../../protocol/index.ts";

export type InboxMap = Record<string, InboxItem>;
type InboxFrame = Extract<ServerFrame, { type: "inbox.snapshot" | "inbox.changed" }>;

/** A request the page already holds: its session's `interaction.requested` brought it. */
export type HeldRequest = (
  sessionId: string,
  interactionId: string,
) => InteractionRequest | undefined;

/** U1: the inbox as a fold over its frames, keyed by interaction id. */
export function applyInboxFrame(
  inbox: InboxMap,
  frame: InboxFrame,
  heldRequest: HeldRequest = () => undefined,
): InboxMap {
  if (frame.type === "inbox.snapshot") {
    return Object.fromEntries(frame.items.map((item) => [item.request.interactionId, item]));
  }
  const next = { ...inbox };
  for (const id of frame.removed) delete next[id];
  for (const item of frame.upserted) next[item.request.interactionId] = item;
  for (const update of frame.arrived ?? []) {
    const request = heldRequest(update.sessionId, update.interactionId);
    // Never absent: the server sends `arrived` only to a page that follows the session.
    if (request !== undefined) next[update.interactionId] = inboxItemOf(request, update);
  }
  for (const update of frame.updated) {
    const held = next[update.interactionId];
    // Never absent: an update follows the snapshot or frame that brought its item.
    if (held !== undefined) next[update.interactionId] = inboxItemOf(held.request, update);
  }
  return next;
}

export function sortedInbox(inbox: InboxMap): InboxItem[] {
  return Object.values(inbox).sort(inboxOrder);
}
