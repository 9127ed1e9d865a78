import type { Database } from "better-sqlite3";
import type { FastifyInstance } from "fastify";
import type { Clock } from "../clock.ts";
import type { InboxFeed } from "../inbox/inboxFeed.ts";
import type { InteractionRegistry } from "../interactions/port.ts";
import type { SessionLog } from "../store/sessionLog.ts";
import type { SqlDb } from "../store/sqlDb.ts";
import { CountdownPushes } from "./countdownPushes.ts";
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
  /** S2: see PushNotifierDeps.takePush. */
  takePush?(key: string): boolean;
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
    ...(deps.takePush ? { takePush: deps.takePush } : {}),
  });
  const countdowns = new CountdownPushes({
    clock: deps.clock,
    current: (sessionId, id) => deps.inbox.item(sessionId, id),
    announce: (item) => void notifier.countdownVisible(item),
  });
  const findPending = (id: string) =>
    deps.inbox.snapshot().find((item) => item.request.interactionId === id);

  const unsubscribe = deps.inbox.onChange((frame, arrived) => {
    if (frame.type !== "inbox.changed") return;
    countdowns.onInboxChanged(frame);
    void notifier.onInboxChanged(frame, arrived);
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
      countdowns.close();
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
