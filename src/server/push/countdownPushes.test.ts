import type { Database } from "better-sqlite3";
import type { InboxItem } from "../../protocol/index.ts";
import { InboxFeed } from "../inbox/inboxFeed.ts";
import { FakeClock } from "../interactions/fakeClock.ts";
import { colourQuestion, flush, GRACE_MS, registryOnLog } from "../interactions/registryHarness.ts";
import { openDatabase } from "../store/database.ts";
import { SessionLog } from "../store/sessionLog.ts";
import { tempDir } from "../testing/helpers.ts";
import { CountdownPushes } from "./countdownPushes.ts";

describe("countdown pushes", () => {
  let dir: ReturnType<typeof tempDir>;
  let db: Database;
  let clock: FakeClock;
  let feed: InboxFeed;
  let registry: ReturnType<typeof registryOnLog>;
  let pushes: CountdownPushes;
  let announced: InboxItem[];

  beforeEach(() => {
    dir = tempDir();
    db = openDatabase(`${dir.path}/plangate.db`);
    clock = new FakeClock();
    const log = new SessionLog(db, clock);
    log.createSession({
      id: "sess_a",
      title: "a",
      model: "scripted/demo",
      mode: { permissionMode: "build", planEnabled: false },
    });
    registry = registryOnLog(log, clock);
    feed = new InboxFeed({ log, interactions: registry });
    announced = [];
    pushes = new CountdownPushes({
      clock,
      current: (sessionId, id) => feed.item(sessionId, id),
      announce: (item) => announced.push(item),
    });
    feed.onChange((frame) => {
      if (frame.type === "inbox.changed") pushes.onInboxChanged(frame);
    });
  });
  afterEach(() => {
    pushes.close();
    feed.close();
    registry.close();
    db.close();
    dir.remove();
  });

  const ask = (toolCallId: string) =>
    registry.askQuestions(
      "sess_a",
      { toolName: "AskUserQuestion", toolCallId, questions: [colourQuestion] },
      new AbortController().signal,
    );

  it("[X5][U3] a queued question's countdown, started when the head before it is answered, is announced once it shows", async () => {
    void ask("c1");
    void ask("c2");
    await flush();
    const [head, next] = registry.pending("sess_a");
    clock.advance(GRACE_MS);
    expect(announced.map((item) => item.request.interactionId)).toEqual([
      head?.request.interactionId,
    ]);

    expect(
      registry.answer(head?.request.interactionId ?? "", {
        [colourQuestion.question]: { labels: ["Red"] },
      }),
    ).toEqual({ ok: true });
    await flush();
    clock.advance(GRACE_MS - 1);
    expect(announced).toHaveLength(1);
    clock.advance(1);
    expect(announced.map((item) => item.request.interactionId)).toEqual([
      head?.request.interactionId,
      next?.request.interactionId,
    ]);
  });

  it("[X5] an item answered before its countdown shows is not announced", async () => {
    void ask("c1");
    await flush();
    const [head] = registry.pending("sess_a");
    registry.answer(head?.request.interactionId ?? "", {
      [colourQuestion.question]: { labels: ["Red"] },
    });
    await flush();
    clock.advance(GRACE_MS);
    expect(announced).toEqual([]);
  });
});
