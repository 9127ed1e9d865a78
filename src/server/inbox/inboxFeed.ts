import {
  type InboxItem,
  inboxOrder,
  type ServerFrame,
  type SessionEntry,
  type StoredEntry,
} from "../../protocol/index.ts";
import type { InteractionRegistry } from "../interactions/port.ts";

type InboxFrame = Extract<ServerFrame, { type: "inbox.snapshot" | "inbox.changed" }>;
type ChangedFrame = Extract<ServerFrame, { type: "inbox.changed" }>;

export interface InboxFeedDeps {
  log: {
    listSessions(): { id: string }[];
    subscribe(listener: (sessionId: string, stored: StoredEntry) => void): () => void;
  };
  interactions: Pick<InteractionRegistry, "pending">;
}

/** Entries that can add, change or remove a pending interaction. */
const inboxKinds = new Set<SessionEntry["kind"]>([
  "interaction.requested",
  "interaction.countdown",
  "interaction.draft",
  "interaction.resolved",
]);

/**
 * U1: every pending interaction of every session, own or an MCP agent's, as a snapshot for a
 * client that says hello and as changes for the ones already connected. The registry is the
 * truth; entries only say which session to read again, a microtask later, once the registry
 * has taken the entry in.
 */
export class InboxFeed {
  private readonly sent = new Map<string, InboxItem[]>();
  private readonly dirty = new Set<string>();
  private readonly listeners = new Set<(frame: InboxFrame) => void>();
  private readonly unsubscribe: () => void;

  constructor(private readonly deps: InboxFeedDeps) {
    this.unsubscribe = deps.log.subscribe((sessionId, stored) => {
      if (!inboxKinds.has(stored.entry.kind)) return;
      if (this.dirty.size === 0) queueMicrotask(() => this.flush());
      this.dirty.add(sessionId);
    });
  }

  /** Changes go out before the snapshot is read, so no earlier client misses one. */
  snapshot(): InboxItem[] {
    this.flush();
    const items: InboxItem[] = [];
    for (const { id } of this.deps.log.listSessions()) {
      const current = this.read(id);
      if (current.length > 0) this.sent.set(id, current);
      else this.sent.delete(id);
      items.push(...current);
    }
    return items.sort(inboxOrder);
  }

  /**
   * One pending item, read from its session alone (after the changes go out, as a snapshot):
   * X5's timers fire together for heads visible together, and a snapshot each read every
   * pending item of every session (issue 15).
   */
  item(sessionId: string, interactionId: string): InboxItem | undefined {
    this.flush();
    return this.read(sessionId).find((item) => item.request.interactionId === interactionId);
  }

  onChange(listener: (frame: InboxFrame) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    this.unsubscribe();
    this.listeners.clear();
  }

  private read(sessionId: string): InboxItem[] {
    return this.deps.interactions.pending(sessionId).map((view) => {
      const item: InboxItem = {
        request: view.request,
        countdown: view.countdown,
        queueOrder: view.queueOrder,
      };
      if (view.draft) item.draft = view.draft;
      return item;
    });
  }

  private flush(): void {
    if (this.dirty.size === 0) return;
    const frame: ChangedFrame = { type: "inbox.changed", upserted: [], removed: [] };
    for (const sessionId of this.dirty) {
      const before = new Map(
        (this.sent.get(sessionId) ?? []).map((item) => [item.request.interactionId, item]),
      );
      const current = this.read(sessionId);
      for (const item of current) {
        const old = before.get(item.request.interactionId);
        before.delete(item.request.interactionId);
        if (!old || !sameItem(old, item)) frame.upserted.push(item);
      }
      frame.removed.push(...before.keys());
      if (current.length > 0) this.sent.set(sessionId, current);
      else this.sent.delete(sessionId);
    }
    this.dirty.clear();
    if (frame.upserted.length === 0 && frame.removed.length === 0) return;
    for (const listener of this.listeners) listener(frame);
  }
}

/**
 * A pending interaction's request never changes, so it is compared by reference; only its
 * small countdown and draft are compared as JSON. Whole items as JSON made every question a
 * burst added to a session cost a stringify of every question queued before it, twice.
 */
function sameItem(old: InboxItem, item: InboxItem): boolean {
  return (
    old.request === item.request &&
    old.queueOrder === item.queueOrder &&
    sameJson(old.countdown, item.countdown) &&
    sameJson(old.draft, item.draft)
  );
}

function sameJson(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}
