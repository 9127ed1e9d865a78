import {
  type InboxChangedFrame,
  type InboxItem,
  inboxOrder,
  inboxUpdateOf,
  interactionIdOf,
  type ServerFrame,
  type StoredEntry,
} from "../../protocol/index.ts";
import type { InteractionRegistry } from "../interactions/port.ts";

type InboxFrame = Extract<ServerFrame, { type: "inbox.snapshot" | "inbox.changed" }>;

/**
 * Hears each change; `arrived` names the upserted items that are new, not a known item whose
 * request was taken in again (S2, A7), so a listener need not remember every item it saw.
 */
export type InboxListener = (frame: InboxFrame, arrived: ReadonlySet<string>) => void;

const NONE: ReadonlySet<string> = new Set();

export interface InboxFeedDeps {
  log: {
    listSessions(): { id: string }[];
    subscribe(listener: (sessionId: string, stored: StoredEntry) => void): () => void;
  };
  interactions: Pick<InteractionRegistry, "pending" | "pendingOne">;
}

/**
 * U1: every pending interaction of every session, own or an MCP agent's, as a snapshot for a
 * client that says hello and as changes for the ones already connected. The registry is the
 * truth; an entry only says which interaction to read again, a microtask later, once the
 * registry has taken the entry in. Only that one is read: a burst's session holds hundreds, and
 * each answer re-read them all (issue 15).
 */
export class InboxFeed {
  /** What clients were last told, by interaction id. */
  private readonly sent = new Map<string, InboxItem>();
  private readonly dirty = new Set<string>();
  private readonly listeners = new Set<InboxListener>();
  private readonly unsubscribe: () => void;

  constructor(private readonly deps: InboxFeedDeps) {
    this.unsubscribe = deps.log.subscribe((_sessionId, stored) => {
      const interactionId = interactionIdOf(stored.entry);
      if (interactionId === undefined) return;
      if (this.dirty.size === 0) queueMicrotask(() => this.flush());
      this.dirty.add(interactionId);
    });
  }

  /** Changes go out before the snapshot is read, so no earlier client misses one. */
  snapshot(): InboxItem[] {
    this.flush();
    const items: InboxItem[] = [];
    this.sent.clear();
    for (const { id } of this.deps.log.listSessions()) {
      // A registry view is a fresh object of the item's shape: it is sent as it is.
      for (const item of this.deps.interactions.pending(id)) {
        this.sent.set(item.request.interactionId, item);
        items.push(item);
      }
    }
    return items.sort(inboxOrder);
  }

  /** One pending item (after the changes go out, as a snapshot): X5's timer for it. */
  item(sessionId: string, interactionId: string): InboxItem | undefined {
    this.flush();
    const view = this.deps.interactions.pendingOne(interactionId);
    return view?.request.sessionId === sessionId ? view : undefined;
  }

  onChange(listener: InboxListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    this.unsubscribe();
    this.listeners.clear();
  }

  private flush(): void {
    if (this.dirty.size === 0) return;
    const frame: InboxChangedFrame = {
      type: "inbox.changed",
      upserted: [],
      updated: [],
      removed: [],
    };
    let arrived: Set<string> | undefined;
    for (const interactionId of this.dirty) {
      const item = this.deps.interactions.pendingOne(interactionId);
      const old = this.sent.get(interactionId);
      if (!item) {
        if (old) frame.removed.push(interactionId);
        this.sent.delete(interactionId);
        continue;
      }
      // Every client holds what `sent` holds: new ones get it in their snapshot.
      if (!old) arrived = (arrived ?? new Set()).add(interactionId);
      if (!old || old.request !== item.request) frame.upserted.push(item);
      else if (!sameItem(old, item)) frame.updated.push(inboxUpdateOf(item));
      this.sent.set(interactionId, item);
    }
    this.dirty.clear();
    if (frame.upserted.length + frame.updated.length + frame.removed.length === 0) return;
    for (const listener of this.listeners) listener(frame, arrived ?? NONE);
  }
}

/**
 * Of one request (a pending interaction's never changes, so it is compared by reference):
 * whether its small countdown, draft and queue order are as sent. Whole items as JSON made
 * every question a burst added to a session cost a stringify of every question before it.
 */
function sameItem(old: InboxItem, item: InboxItem): boolean {
  return (
    old.queueOrder === item.queueOrder &&
    sameJson(old.countdown, item.countdown) &&
    sameJson(old.draft, item.draft)
  );
}

function sameJson(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}
