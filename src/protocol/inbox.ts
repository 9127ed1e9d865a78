import { z } from "zod/mini";
import { CountdownState, InteractionRequest } from "./interactions.ts";
import { QuestionDraft } from "./question.ts";

/**
 * U1: one thing waiting for the user, in any session (own or an MCP agent's). The session's
 * title and agent come from its summary, which every client already holds.
 */
const QueueOrder = z
  .number()
  .check(
    z.int(),
    z.minimum(0),
    z.describe(
      "Its session's arrival order (Q7): a session's items with a lower queueOrder wait before it, and the lowest is the head. It never changes while the item waits, so a head leaving changes no item behind it.",
    ),
  );

export const InboxItem = z.strictObject({
  request: InteractionRequest,
  countdown: CountdownState,
  /** X3: the work in progress, so the card opens where another device left it. */
  draft: z.optional(QuestionDraft),
  queueOrder: QueueOrder,
});
export type InboxItem = z.infer<typeof InboxItem>;

/**
 * U1: a waiting item whose countdown, draft or queue order changed and whose request did not.
 * Every client already holds that request (from the snapshot or the frame that brought the
 * item), so it is not sent again: a 300 KB plan went to every device on each draft save.
 */
export const InboxItemUpdate = z.strictObject({
  interactionId: z.string(),
  sessionId: z.string(),
  countdown: CountdownState,
  /** Absent: the item has no draft (any earlier one is gone). */
  draft: z.optional(QuestionDraft),
  queueOrder: QueueOrder,
});
export type InboxItemUpdate = z.infer<typeof InboxItemUpdate>;

/** The item without its request. */
export function inboxUpdateOf({
  request,
  countdown,
  draft,
  queueOrder,
}: InboxItem): InboxItemUpdate {
  const update: InboxItemUpdate = {
    interactionId: request.interactionId,
    sessionId: request.sessionId,
    countdown,
    queueOrder,
  };
  if (draft !== undefined) update.draft = draft;
  return update;
}

/** The item again, from its update and the request a client holds. */
export function inboxItemOf(
  request: InteractionRequest,
  { countdown, draft, queueOrder }: InboxItemUpdate,
): InboxItem {
  return draft === undefined
    ? { request, countdown, queueOrder }
    : { request, countdown, queueOrder, draft };
}

/** U1: every pending interaction, sent right after `welcome`. */
export const InboxSnapshotFrame = z.strictObject({
  type: z.literal("inbox.snapshot"),
  items: z.array(InboxItem),
});

/**
 * U1: what changed since the last inbox frame: items new to the inbox (whole), items that
 * changed besides their request (`updated`), and the interaction ids of items that left.
 * `arrived`: items new to the inbox of a session this client follows, without their request:
 * its `interaction.requested` event, sent to the client before this frame, carries it (a big
 * plan went to the page showing its session twice, issue 15).
 */
export const InboxChangedFrame = z.strictObject({
  type: z.literal("inbox.changed"),
  upserted: z.array(InboxItem),
  updated: z.array(InboxItemUpdate),
  arrived: z.optional(z.array(InboxItemUpdate)),
  removed: z.array(z.string()),
});
export type InboxChangedFrame = z.infer<typeof InboxChangedFrame>;

/** U1: oldest first; a session's own queue order breaks ties. */
export function inboxOrder(a: InboxItem, b: InboxItem): number {
  return (
    a.request.createdAt - b.request.createdAt ||
    (a.request.sessionId < b.request.sessionId
      ? -1
      : a.request.sessionId > b.request.sessionId
        ? 1
        : 0) ||
    a.queueOrder - b.queueOrder
  );
}

/**
 * Q7: how many of its session's items wait before each one (0 for the head), by interaction id.
 * Derived on the reader's side: positions sent on the wire shift for every item behind a head
 * that leaves, and a burst's queue of hundreds was re-sent whole per answer (issue 15).
 */
export function queuePositions(items: readonly InboxItem[]): Map<string, number> {
  const bySession = new Map<string, InboxItem[]>();
  for (const item of items) {
    const queue = bySession.get(item.request.sessionId);
    if (queue) queue.push(item);
    else bySession.set(item.request.sessionId, [item]);
  }
  const positions = new Map<string, number>();
  for (const queue of bySession.values()) {
    queue.sort((a, b) => a.queueOrder - b.queueOrder);
    for (const [position, item] of queue.entries()) {
      positions.set(item.request.interactionId, position);
    }
  }
  return positions;
}
