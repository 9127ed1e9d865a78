import type { ClientFrame } from "../../protocol/index.ts";

/**
 * W7: what the person did that the server has not confirmed yet. A frame made while offline is
 * held and goes out once the connection is back; a frame that expects a receipt stays here
 * until its receipt arrives, so one lost with a dropped connection is sent again on the next.
 * Replaying is safe because an interaction resolves once (R3): a second copy only earns a
 * rejected receipt.
 */
export interface Outbox {
  items: OutboxItem[];
  /** Receipts the server owes this connection, per interaction, for frames already sent. */
  owed: Record<string, number>;
}

export interface OutboxItem {
  /** One item per key: a newer frame with the same key replaces a held one (drafts). */
  key: string;
  frame: ClientFrame;
  /**
   * `null` while held. Once sent: how many receipts for the same interaction come before this
   * frame's own, since the server answers one connection's frames in order.
   */
  receiptsAhead: number | null;
}

export const EMPTY_OUTBOX: Outbox = { items: [], owed: {} };

type ReceiptFrame = Extract<ClientFrame, { interactionId: string }>;

/** Frames the server answers with a `receipt` for their interaction. */
export function receiptInteractionOf(frame: ClientFrame): string | null {
  return "interactionId" in frame ? (frame as ReceiptFrame).interactionId : null;
}

/** The decisions a card can make; the card shows when one of these is held. */
const ACTIONS = new Set<ClientFrame["type"]>([
  "interaction.answer",
  "interaction.cancel",
  "interaction.decide",
  "interaction.lateAnswer",
]);

/** Which frames share a slot: a draft replaces the previous draft, every action is its own. */
export function outboxKey(frame: ClientFrame, serial: number): string {
  switch (frame.type) {
    case "interaction.draft":
    case "interaction.touch":
      return `${frame.type}:${frame.interactionId}`;
    case "composer.draft":
      return `${frame.type}:${frame.sessionId}`;
    default:
      return ACTIONS.has(frame.type) ? `action:${receiptInteractionOf(frame)}` : `#${serial}`;
  }
}

/** Records a frame the caller just tried to send: `sent` false holds it for the connection. */
export function recordFrame(
  outbox: Outbox,
  key: string,
  frame: ClientFrame,
  sent: boolean,
): Outbox {
  const items = outbox.items.filter((item) => item.key !== key || item.receiptsAhead !== null);
  if (!sent) {
    const held = outbox.items.findIndex((item) => item.key === key && item.receiptsAhead === null);
    const item: OutboxItem = { key, frame, receiptsAhead: null };
    if (held < 0) return { ...outbox, items: [...items, item] };
    // A replaced draft keeps its place, so it still goes out before a later action.
    return { ...outbox, items: outbox.items.map((old, index) => (index === held ? item : old)) };
  }
  return afterSend(outbox.owed, items, key, frame);
}

function afterSend(
  owed: Record<string, number>,
  items: OutboxItem[],
  key: string,
  frame: ClientFrame,
): Outbox {
  const interactionId = receiptInteractionOf(frame);
  // Without a receipt to wait for, a frame that went out is done with.
  if (interactionId === null) return { items, owed };
  const ahead = owed[interactionId] ?? 0;
  return {
    items: [...items, { key, frame, receiptsAhead: ahead }],
    owed: { ...owed, [interactionId]: ahead + 1 },
  };
}

/** The connection is back (after welcome): sends what is held, in the order it was made. */
export function flushOutbox(outbox: Outbox, send: (frame: ClientFrame) => boolean): Outbox {
  let next: Outbox = {
    items: outbox.items.filter((item) => item.receiptsAhead !== null),
    owed: outbox.owed,
  };
  let stopped = false;
  for (const item of outbox.items) {
    if (item.receiptsAhead !== null) continue;
    if (stopped || !send(item.frame)) {
      stopped = true;
      next = { ...next, items: [...next.items, item] };
      continue;
    }
    next = afterSend(next.owed, next.items, item.key, item.frame);
  }
  return next;
}

/** A receipt settles the earliest sent frame of its interaction still waiting for one. */
export function receiptArrived(outbox: Outbox, interactionId: string): Outbox {
  const owed = { ...outbox.owed };
  const left = (owed[interactionId] ?? 0) - 1;
  if (left > 0) owed[interactionId] = left;
  else delete owed[interactionId];
  const items: OutboxItem[] = [];
  for (const item of outbox.items) {
    const waits = item.receiptsAhead !== null && receiptInteractionOf(item.frame) === interactionId;
    if (!waits) items.push(item);
    else if (item.receiptsAhead !== 0)
      items.push({ ...item, receiptsAhead: item.receiptsAhead! - 1 });
  }
  return { items, owed };
}

/** Frames that went out without a receipt back may or may not have arrived: hold them again. */
export function connectionLost(outbox: Outbox): Outbox {
  if (outbox.items.every((item) => item.receiptsAhead === null) && isEmpty(outbox.owed)) {
    return outbox;
  }
  return {
    items: outbox.items.map((item) =>
      item.receiptsAhead === null ? item : { ...item, receiptsAhead: null },
    ),
    owed: {},
  };
}

/** A deleted session's held messages and drafts have nowhere to go. */
export function dropSession(outbox: Outbox, sessionId: string): Outbox {
  const items = outbox.items.filter(
    (item) => !("sessionId" in item.frame) || item.frame.sessionId !== sessionId,
  );
  return items.length === outbox.items.length ? outbox : { ...outbox, items };
}

/** The card's decision waiting for the connection, if any (W7). */
export function heldActionFor(outbox: Outbox, interactionId: string): ClientFrame | undefined {
  return outbox.items.find(
    (item) => item.receiptsAhead === null && item.key === `action:${interactionId}`,
  )?.frame;
}

/** Messages typed into a session while offline, oldest first. */
export function heldMessagesFor(outbox: Outbox, sessionId: string): string[] {
  return outbox.items.flatMap((item) =>
    item.receiptsAhead === null &&
    item.frame.type === "prompt" &&
    item.frame.sessionId === sessionId
      ? [item.frame.text]
      : [],
  );
}

function isEmpty(record: Record<string, number>): boolean {
  for (const _ in record) return false;
  return true;
}

/** W7 selectors for components: whether frames are being held, and a card's held decision. */
export function isOffline(state: { connection: { status: string } }): boolean {
  return state.connection.status !== "open";
}

export function queuedActionFor(
  state: { outbox: Outbox },
  interactionId: string,
): ClientFrame | undefined {
  return heldActionFor(state.outbox, interactionId);
}
