import { type InboxItem, inboxOrder, type ServerFrame } from "../../protocol/index.ts";

export type InboxMap = Record<string, InboxItem>;
type InboxFrame = Extract<ServerFrame, { type: "inbox.snapshot" | "inbox.changed" }>;

/** U1: the inbox as a fold over its frames, keyed by interaction id. */
export function applyInboxFrame(inbox: InboxMap, frame: InboxFrame): InboxMap {
  if (frame.type === "inbox.snapshot") {
    return Object.fromEntries(frame.items.map((item) => [item.request.interactionId, item]));
  }
  const next = { ...inbox };
  for (const id of frame.removed) delete next[id];
  for (const item of frame.upserted) next[item.request.interactionId] = item;
  for (const { interactionId, countdown, draft, queueOrder } of frame.updated) {
    const held = next[interactionId];
    // Never absent: an update follows the snapshot or frame that brought its item.
    if (held === undefined) continue;
    const { draft: _previous, ...item } = held;
    next[interactionId] =
      draft === undefined
        ? { ...item, countdown, queueOrder }
        : { ...item, countdown, queueOrder, draft };
  }
  return next;
}

export function sortedInbox(inbox: InboxMap): InboxItem[] {
  return Object.values(inbox).sort(inboxOrder);
}
