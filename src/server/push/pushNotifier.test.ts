import { statSync } from "node:fs";
import { join } from "node:path";
import type { Database } from "better-sqlite3";
import { DEFAULT_SETTINGS } from "../../protocol/index.ts";
import { InboxFeed } from "../inbox/inboxFeed.ts";
import { FakeClock } from "../interactions/fakeClock.ts";
import { createInteractionRegistry } from "../interactions/registry.ts";
import { colourQuestion, DEADLINE_MS, flush, GRACE_MS } from "../interactions/registryHarness.ts";
import { openDatabase } from "../store/database.ts";
import { SessionLog } from "../store/sessionLog.ts";
import { tempDir } from "../testing/helpers.ts";
import { PushNotifier } from "./pushNotifier.ts";
import { sendPush } from "./pushSender.ts";
import { SubscriptionStore } from "./subscriptionStore.ts";
import { startLoopbackPushService } from "./testing/loopbackPushService.ts";
import { loadOrCreateVapidKeys, VAPID_FILE } from "./vapidKeys.ts";

const build = { permissionMode: "build", planEnabled: false } as const;

describe("web push", () => {
  let dir: ReturnType<typeof tempDir>;
  let db: Database;
  let service: Awaited<ReturnType<typeof startLoopbackPushService>>;

  beforeEach(async () => {
    dir = tempDir();
    db = openDatabase(join(dir.path, "plangate.db"));
    service = await startLoopbackPushService();
  });
  afterEach(async () => {
    await service.close();
    db.close();
    dir.remove();
  });

  /** A log, a registry over it and the inbox that follows them, as the server wires them. */
  function inboxOverTheLog() {
    const clock = new FakeClock();
    const log = new SessionLog(db, clock);
    const registry = createInteractionRegistry({
      append: (sessionId, entry) => log.append(sessionId, entry),
      clock,
      settings: () => DEFAULT_SETTINGS,
      timings: { graceMs: GRACE_MS, deadlineMs: DEADLINE_MS },
      newId: () => "int_1",
    });
    return { clock, log, registry, feed: new InboxFeed({ log, interactions: registry }) };
  }

  it("[U3] VAPID keys are made once, kept owner-only and reused", () => {
    const zcode = join(dir.path, ".zcode");
    const first = loadOrCreateVapidKeys(zcode);
    expect(statSync(join(zcode, VAPID_FILE)).mode & 0o777).toBe(0o600);
    expect(loadOrCreateVapidKeys(zcode)).toEqual(first);
  });

  it("[U3] a question waits → every subscribed device gets an encrypted push naming the agent and the question", async () => {
    const { clock, log, registry, feed } = inboxOverTheLog();
    const subscriptions = new SubscriptionStore(db);
    subscriptions.save(service.subscription, clock.now());
    const vapid = {
      ...loadOrCreateVapidKeys(join(dir.path, ".zcode")),
      subject: "mailto:plangate@localhost",
    };
    const notifier = new PushNotifier({
      subscriptions,
      send: (subscription, payload) => sendPush(subscription, payload, vapid),
      session: (id) => log.getSession(id),
      baseUrl: () => "https://plangate.example",
    });
    feed.onChange((frame, arrived) => {
      if (frame.type === "inbox.changed") void notifier.onInboxChanged(frame, arrived);
    });
    log.createSession({ id: "sess_1", title: "Buttons", model: "mcp/outside-agent", mode: build });
    void registry.askQuestions(
      "sess_1",
      { toolName: "AskUserQuestion", toolCallId: "c1", questions: [colourQuestion] },
      new AbortController().signal,
    );
    await flush();

    const push = await service.next(1);
    expect(push.headers["content-encoding"]).toBe("aes128gcm");
    expect(String(push.headers.authorization)).toMatch(/^vapid t=.+, k=.+/);
    expect(push.payload).toMatchObject({
      interactionId: "int_1",
      agent: "outside-agent (over MCP)",
      overMcp: true,
      sessionTitle: "Buttons",
      text: colourQuestion.question,
      kind: "question",
      actions: [
        { id: "Blue (Recommended)", label: "Blue (Recommended)" },
        { id: "Red", label: "Red" },
      ],
      url: "https://plangate.example/#/inbox",
    });

    // X5: once more when the countdown shows; a touch (countdown change) is not a new arrival.
    const [item] = feed.snapshot();
    if (!item) throw new Error("nothing waits");
    await notifier.countdownVisible(item);
    await notifier.countdownVisible(item);
    expect((await service.next(2)).payload).toMatchObject({
      interactionId: "int_1",
      deadlineAt: expect.any(Number),
    });
    registry.touch("int_1");
    await flush();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(service.received).toHaveLength(2);

    // A device that unsubscribed (410) is forgotten.
    service.answerWith(410);
    await notifier.countdownVisible({
      ...item,
      request: { ...item.request, interactionId: "int_2" },
    });
    expect(subscriptions.list()).toEqual([]);
    feed.close();
    registry.close();
  });

  it("[U3][R3] with the store away a push fails quietly: the notifier's promises never reject (an unhandled rejection ends the server)", async () => {
    const { log, registry, feed } = inboxOverTheLog();
    const away = openDatabase(join(dir.path, "away.db"));
    const subscriptions = new SubscriptionStore(away);
    away.close();
    const notifier = new PushNotifier({
      subscriptions,
      send: async () => "sent",
      session: (id) => log.getSession(id),
      baseUrl: () => "https://plangate.example",
    });
    const pushes: Promise<void>[] = [];
    feed.onChange((frame, arrived) => {
      if (frame.type === "inbox.changed") pushes.push(notifier.onInboxChanged(frame, arrived));
    });
    log.createSession({ id: "sess_1", title: "Away", model: "scripted/demo", mode: build });
    void registry.askQuestions(
      "sess_1",
      { toolName: "AskUserQuestion", toolCallId: "c1", questions: [colourQuestion] },
      new AbortController().signal,
    );
    await flush();
    expect(pushes.length).toBeGreaterThan(0);
    await expect(Promise.all(pushes)).resolves.toBeDefined();
    const [item] = feed.snapshot();
    if (!item) throw new Error("nothing waits");
    await expect(notifier.countdownVisible(item)).resolves.toBeUndefined();
    feed.close();
    registry.close();
  });
});
