import type { Database } from "better-sqlite3";
import type { FastifyInstance } from "fastify";
import type { Clock } from "../clock.ts";
import type { InboxFeed } from "../inbox/inboxFeed.ts";
import type { InteractionRegistry } from "../interactions/port.ts";
import type { SessionLog } from "../store/sessionLog.ts";
import type { SqlDb } from "../store/sqlDb.ts";
import { PushNotifier } from "./pushNotifier.ts";
import { registerPushRoutes } from "./pushRoutes.ts";
import { sendPush } from "./pushSender.ts";
import { SubscriptionStore } from "./subscriptionStore.ts";
import { loadOrCreateVapidKeys } from "./vapidKeys.ts";

export interface WirePushDeps {
  keysDir: string;
  db: Database | SqlDb;
  log: SessionLog;
  inbox: InboxFeed;
  interactions: InteractionRegistry;
  clock: Clock;
  baseUrl(): string;
  allowLoopbackEndpoints: boolean;
}

/**
 * U3: Web Push as one piece: keys, subscriptions, routes, and a notifier that follows the
 * inbox; an X5 timer per counting item announces its countdown when it becomes visible.
 */
export function wirePush(app: FastifyInstance, deps: WirePushDeps): { close(): void } {
  const keys = loadOrCreateVapidKeys(deps.keysDir);
  const subscriptions = new SubscriptionStore(deps.db);
  const vapid = { ...keys, subject: "mailto:plangate@localhost" };
  const notifier = new PushNotifier({
    subscriptions,
    send: (subscription, payload) => sendPush(subscription, payload, vapid),
    session: (id) => deps.log.getSession(id),
    baseUrl: deps.baseUrl,
  });
  const timers = new Map<string, ReturnType<Clock["setTimeout"]>>();
  const findPending = (id: string) =>
    deps.inbox.snapshot().find((item) => item.request.interactionId === id);

  const unsubscribe = deps.inbox.onChange((frame) => {
    if (frame.type !== "inbox.changed") return;
    for (const id of frame.removed) {
      const timer = timers.get(id);
      if (timer !== undefined) deps.clock.clearTimeout(timer);
      timers.delete(id);
    }
    for (const item of frame.upserted) {
      const id = item.request.interactionId;
      if (item.countdown.phase !== "counting" || timers.has(id)) continue;
      const wait = Math.max(0, item.countdown.visibleAt - deps.clock.now());
      timers.set(
        id,
        deps.clock.setTimeout(() => {
          const still = deps.inbox.item(item.request.sessionId, id);
          if (still?.countdown.phase === "counting") void notifier.countdownVisible(still);
        }, wait),
      );
    }
    void notifier.onInboxChanged(frame);
  });

  registerPushRoutes(app, {
    publicKey: keys.publicKey,
    subscriptions,
    interactions: { ...bind(deps.interactions), find: findPending },
    clock: deps.clock,
    allowLoopbackEndpoints: deps.allowLoopbackEndpoints,
  });

  return {
    close() {
      unsubscribe();
      for (const timer of timers.values()) deps.clock.clearTimeout(timer);
      timers.clear();
    },
  };
}

function bind(interactions: InteractionRegistry) {
  return {
    pending: interactions.pending.bind(interactions),
    answer: interactions.answer.bind(interactions),
    decide: interactions.decide.bind(interactions),
  };
}
