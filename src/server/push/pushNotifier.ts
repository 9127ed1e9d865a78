import {
  headlineOf,
  type InboxChangedFrame,
  type InboxItem,
  isDrivenOverMcp,
  mcpClientOf,
} from "../../protocol/index.ts";
import { fitPayload } from "./pushLimits.ts";
import type { PushResult } from "./pushSender.ts";
import type { PushSubscriptionRecord } from "./subscriptionStore.ts";

/** U3: what a notification carries; the service worker shows it and routes its actions. */
export interface PushPayload {
  interactionId: string;
  sessionId: string;
  kind: "question" | "review" | "permission";
  /**
   * The agent that asks: plangate, or an MCP client's own name marked "over MCP", since an
   * agent can call itself anything, plangate included.
   */
  agent: string;
  /** Set when the agent asks over MCP, not through one of plangate's own sessions. */
  overMcp: boolean;
  sessionTitle: string;
  /** The question, or the tool and what it touches. */
  text: string;
  /** Answers a notification action may give directly (permission, single-choice question). */
  actions: { id: string; label: string }[];
  /** X5: set when the countdown has just become visible. */
  deadlineAt?: number;
  url: string;
}

export interface PushNotifierDeps {
  subscriptions: { list(): PushSubscriptionRecord[]; remove(endpoint: string): void };
  send(subscription: PushSubscriptionRecord, payload: PushPayload): Promise<PushResult>;
  session(sessionId: string): { title: string; model: string } | undefined;
  /** Where a notification opens: the public URL when one is set. */
  baseUrl(): string;
  /**
   * S2: the lease on one push (`<interaction id>#<reason>`); only the server that gets it
   * sends. Absent (SQLite, one server): every push is this server's to send.
   */
  takePush?(key: string): boolean;
}

function kindOf(item: InboxItem): PushPayload["kind"] {
  const { request } = item;
  if (request.kind === "permission") return "permission";
  return request.questions[0]?.intent?.kind === "plan-review" ? "review" : "question";
}

/** The buttons a notification offers for a card, and so the only answers `/push/action` takes. */
export function notificationActions(request: InboxItem["request"]): PushPayload["actions"] {
  if (request.kind === "permission") {
    return [
      { id: "allow_once", label: "Allow once" },
      { id: "deny", label: "Deny" },
    ];
  }
  const [only, ...more] = request.questions;
  if (!only || more.length > 0 || only.multiSelect || only.intent) return [];
  return only.options.slice(0, 2).map((option) => ({ id: option.label, label: option.label }));
}

/**
 * U3/X5: a push to every subscribed device when something starts waiting, and once more when
 * its countdown becomes visible. Each interaction is announced at most once per reason, by
 * one server of those sharing a PostgreSQL (S2).
 */
export class PushNotifier {
  /**
   * The items whose countdown was announced; an arrival is announced once by the inbox's word
   * that the item is new, so nothing is kept per waiting question (issue 15).
   */
  private readonly countdownsAnnounced = new Set<string>();

  constructor(private readonly deps: PushNotifierDeps) {}

  onInboxChanged(frame: InboxChangedFrame, arrived: ReadonlySet<string>): Promise<void> {
    const sends: Promise<void>[] = [];
    for (const id of frame.removed) this.countdownsAnnounced.delete(id);
    for (const item of frame.upserted) {
      const id = item.request.interactionId;
      if (arrived.has(id)) sends.push(this.pushAll(`${id}#arrived`, item));
    }
    return Promise.all(sends).then(() => undefined);
  }

  /** X5: the countdown of this item is now on screen; say so before the deadline. */
  countdownVisible(item: InboxItem): Promise<void> {
    const id = item.request.interactionId;
    if (item.countdown.phase !== "counting" || this.countdownsAnnounced.has(id)) {
      return Promise.resolve();
    }
    this.countdownsAnnounced.add(id);
    return this.pushAll(`${id}#countdown`, item, item.countdown.deadlineAt);
  }

  payloadOf(item: InboxItem, deadlineAt?: number): PushPayload {
    const { request } = item;
    const session = this.deps.session(request.sessionId);
    const model = session?.model ?? "";
    const overMcp = isDrivenOverMcp(model);
    const text = headlineOf(request);
    const payload: PushPayload = {
      interactionId: request.interactionId,
      sessionId: request.sessionId,
      kind: kindOf(item),
      agent: overMcp ? `${mcpClientOf(model)} (over MCP)` : "plangate",
      overMcp,
      sessionTitle: session?.title ?? "",
      text,
      actions: notificationActions(item.request),
      url: `${this.deps.baseUrl()}/#/inbox`,
    };
    if (deadlineAt !== undefined) payload.deadlineAt = deadlineAt;
    return fitPayload(payload);
  }

  /**
   * Never rejects: callers fire and forget, and an unhandled rejection (the store away, say)
   * would end the server. A push that could not be sent is only logged.
   */
  private async pushAll(key: string, item: InboxItem, deadlineAt?: number): Promise<void> {
    try {
      // Most servers have no device subscribed: a burst's items then cost no session read each.
      const subscriptions = this.deps.subscriptions.list();
      if (subscriptions.length === 0) return;
      if (this.deps.takePush && !this.deps.takePush(key)) return;
      const payload = this.payloadOf(item, deadlineAt);
      await Promise.all(
        subscriptions.map(async (subscription) => {
          const result = await this.deps.send(subscription, payload);
          if (result === "gone") this.deps.subscriptions.remove(subscription.endpoint);
        }),
      );
    } catch (error) {
      console.error("plangate: a push notification could not be sent:", error);
    }
  }
}
