import type { FastifyInstance } from "fastify";
import {
  type AnsweredBy,
  PermissionDecision,
  PushActionBody,
  PushSubscribeBody,
} from "../../protocol/index.ts";
import type { Clock } from "../clock.ts";
import { personOfRequest } from "../http/requestPerson.ts";
import type { InteractionRegistry, Receipt } from "../interactions/port.ts";
import {
  MAX_PUSH_SUBSCRIPTIONS,
  PUSH_BODY_LIMIT_BYTES,
  pushEndpointProblem,
} from "./pushLimits.ts";
import { notificationActions } from "./pushNotifier.ts";
import type { SubscriptionStore } from "./subscriptionStore.ts";

export const PUSH_PATHS = {
  key: "/push/key",
  subscribe: "/push/subscribe",
  action: "/push/action",
};

export interface PushRouteDeps {
  publicKey: string;
  subscriptions: SubscriptionStore;
  interactions: Pick<InteractionRegistry, "pending" | "answer" | "decide"> & {
    find(interactionId: string): ReturnType<InteractionRegistry["pending"]>[number] | undefined;
  };
  clock: Clock;
  /** Tests point devices at a loopback push service; a real server never does. */
  allowLoopbackEndpoints: boolean;
}

/**
 * U3: the page fetches the public key and subscribes its device; the service worker sends a
 * notification's action, which answers through the registry like any answer (R3: exactly
 * once; a second gets 409) and is recorded as given from a notification (U4).
 */
export function registerPushRoutes(app: FastifyInstance, deps: PushRouteDeps): void {
  app.get(PUSH_PATHS.key, async (_request, reply) =>
    reply.header("cache-control", "no-store").send({ publicKey: deps.publicKey }),
  );

  const limits = { bodyLimit: PUSH_BODY_LIMIT_BYTES };
  app.post(PUSH_PATHS.subscribe, limits, async (request, reply) => {
    const body = PushSubscribeBody.safeParse(request.body);
    if (!body.success) return reply.code(400).send({ error: "not a push subscription" });
    const problem = pushEndpointProblem(body.data.endpoint, deps.allowLoopbackEndpoints);
    if (problem) return reply.code(400).send({ error: problem });
    const saved = deps.subscriptions.saveWithin(
      {
        endpoint: body.data.endpoint,
        keys: body.data.keys,
        deviceLabel: body.data.deviceLabel ?? "a device",
      },
      deps.clock.now(),
      MAX_PUSH_SUBSCRIPTIONS,
    );
    if (!saved) {
      return reply
        .code(409)
        .send({ error: `already ${MAX_PUSH_SUBSCRIPTIONS} devices get notifications` });
    }
    return reply.code(201).send({ ok: true });
  });

  app.post(PUSH_PATHS.action, limits, async (request, reply) => {
    const body = PushActionBody.safeParse(request.body);
    if (!body.success) return reply.code(400).send({ error: "not a notification action" });
    const { interactionId, action } = body.data;
    const person = personOfRequest(request.raw);
    const by: AnsweredBy = {
      deviceId: "notification",
      label: body.data.deviceLabel ?? "a device",
      via: "notification",
      ...(person === undefined ? {} : { person }),
    };
    const pending = deps.interactions.find(interactionId);
    let result: Receipt;
    if (!pending) {
      result = { ok: false, code: "UNKNOWN_INTERACTION", message: "nothing waits under that id" };
    } else if (!notificationActions(pending.request).some((offered) => offered.id === action)) {
      // A plan review, a batch or a multi-select is answered on its card, never from a notification.
      result = {
        ok: false,
        code: "INVALID_ANSWER",
        message: "a notification offers no such action for this card",
      };
    } else if (pending.request.kind === "permission") {
      // Offered for a permission: Allow once and Deny, both decisions.
      result = deps.interactions.decide(interactionId, PermissionDecision.parse(action), by);
    } else {
      // Offered only for a batch of one single-choice question: the action is its label.
      const question = pending.request.questions[0]?.question ?? "";
      result = deps.interactions.answer(interactionId, { [question]: { labels: [action] } }, by);
    }
    if (result.ok) return reply.send({ ok: true });
    const status = result.code === "INVALID_ANSWER" ? 400 : 409;
    return reply.code(status).send({ ok: false, code: result.code, message: result.message });
  });
}
