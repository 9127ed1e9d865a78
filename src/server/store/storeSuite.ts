import type { SessionEntry, StoredEntry } from "../../protocol/index.ts";
import { FakeClock } from "../interactions/fakeClock.ts";
import { AlreadyLateAnsweredError, AlreadyResolvedError, SessionNotFoundError } from "./errors.ts";
import { hashNamedToken, NamedTokenError, NamedTokenStore } from "./namedTokens.ts";
import { openStore, type Store } from "./store.ts";

/** Where a fresh, empty store of one backend lives: a new file, or a new database's URL. */
export type NewStoreLocation = () => Promise<string>;

const build = { permissionMode: "build", planEnabled: false } as const;

function question(interactionId: string, sessionId = "s1"): SessionEntry {
  return {
    kind: "interaction.requested",
    request: {
      kind: "question",
      interactionId,
      sessionId,
      toolName: "AskUserQuestion",
      toolCallId: `call_${interactionId}`,
      questions: [
        {
          question: `Question ${interactionId}?`,
          header: "Pick",
          multiSelect: false,
          options: [
            { label: "A", description: "" },
            { label: "B", description: "" },
          ],
        },
      ],
      createdAt: 0,
    },
  };
}

function lateAnswer(interactionId: string, label: string): SessionEntry {
  return {
    kind: "user.message",
    text: `I choose ${label} after all.`,
    synthetic: true,
    lateAnswerFor: interactionId,
  };
}

const seqs = (entries: StoredEntry[]) => entries.map((stored) => stored.seq);

/**
 * S1: the one store suite. Every backend runs these same tests through the Store interface;
 * `newLocation` gives each test an empty store of its own.
 */
export function describeStore(name: string, newLocation: NewStoreLocation): void {
  describe(`store: ${name}`, () => {
    let clock: FakeClock;
    let location: string;
    let store: Store;
    const opened: Store[] = [];
    const open = () => {
      const made = openStore(location, clock);
      opened.push(made);
      return made;
    };

    beforeEach(async () => {
      clock = new FakeClock();
      location = await newLocation();
      store = open();
      store.log.createSession({ id: "s1", title: "", model: "scripted:demo", mode: build });
    });
    afterEach(() => {
      for (const made of opened.splice(0)) made.close();
    });

    it("[S1] appends entries with consecutive seqs, announces each after it is stored, and reads them back", () => {
      const heard: number[] = [];
      store.log.subscribe((_sessionId, stored) => {
        heard.push(stored.seq);
        expect(store.log.entriesAfter("s1", stored.seq - 1)[0]?.seq).toBe(stored.seq);
      });
      clock.advance(5);
      const first = store.log.append("s1", { kind: "user.message", text: "Fix the login bug" });
      const second = store.log.append("s1", { kind: "assistant.message", text: "On it" });
      expect([first.seq, second.seq]).toEqual([2, 3]);
      expect(heard).toEqual([2, 3]);
      expect(store.log.entriesAfter("s1", 1)).toEqual([first, second]);
      expect(first.at).toBe(clock.now());
      const session = store.log.requireSession("s1");
      expect(session).toMatchObject({
        lastSeq: 3,
        title: "Fix the login bug",
        updatedAt: clock.now(),
      });
    });

    it("[A7] knows the latest time it holds, a session row's or an entry's, the way --test-clock checks it", async () => {
      const empty = openStore(await newLocation(), clock);
      opened.push(empty);
      expect(empty.log.latestTime()).toBeUndefined();
      const created = clock.now();
      expect(store.log.latestTime()).toBe(created);
      clock.advance(7_000);
      store.log.append("s1", { kind: "user.message", text: "later" });
      clock.advance(1_000);
      store.log.createSession({ id: "s2", title: "", model: "scripted:demo", mode: build });
      expect(store.log.latestTime()).toBe(created + 8_000);
    });

    it("[S1] a write to a session that does not exist stores nothing and tells nobody", () => {
      const heard: string[] = [];
      store.log.subscribe((sessionId) => heard.push(sessionId));
      expect(() => store.log.append("nope", { kind: "user.message", text: "x" })).toThrow(
        SessionNotFoundError,
      );
      expect(heard).toEqual([]);
      expect(store.log.listSessions().map((session) => session.id)).toEqual(["s1"]);
    });

    it("[S1] reads a bounded window before a seq, in order, without gaps, skipping uncounted kinds", () => {
      for (let i = 0; i < 450; i++) {
        store.log.append("s1", { kind: "user.message", text: `message ${i}` });
        if (i % 3 === 0) {
          store.log.append("s1", {
            kind: "interaction.draft",
            interactionId: "q1",
            draft: { page: 0, picks: {}, other: {} },
          });
        }
      }
      const lastSeq = store.log.requireSession("s1").lastSeq;
      const window = store.log.entriesBefore("s1", lastSeq + 1, {
        maxEntries: 300,
        maxBytes: 1_000_000,
        uncounted: new Set(["interaction.draft"]),
      });
      const counted = window.filter((stored) => stored.entry.kind !== "interaction.draft");
      expect(counted).toHaveLength(300);
      expect(seqs(window)).toEqual(
        Array.from({ length: window.length }, (_, i) => lastSeq - window.length + 1 + i),
      );
      const small = store.log.entriesBefore("s1", lastSeq + 1, { maxEntries: 1000, maxBytes: 1 });
      expect(seqs(small)).toEqual([lastSeq]);
    });

    it("[S1] a bound of 'before everything' (Number.MAX_SAFE_INTEGER) reads to the end on every backend", () => {
      store.log.append("s1", { kind: "user.message", text: "first" });
      store.log.append("s1", { kind: "user.message", text: "last" });
      const end = Number.MAX_SAFE_INTEGER;
      expect(store.log.latestOfKind("s1", "user.message", end)?.entry).toEqual({
        kind: "user.message",
        text: "last",
      });
      expect(
        seqs(store.log.entriesBefore("s1", end, { maxEntries: 10, maxBytes: 10_000 })),
      ).toEqual(seqs(store.log.entriesBefore("s1", 1_000, { maxEntries: 10, maxBytes: 10_000 })));
      expect(store.log.openRequests("s1", end)).toEqual([]);
    });

    it("[B7] reads the entries of one kind after a seq, in order, without the others", () => {
      const first = store.log.append("s1", { kind: "user.message", text: "one" });
      store.log.append("s1", question("q1"));
      store.log.append("s1", { kind: "user.message", text: "two" });
      store.log.append("s1", question("q2"));
      store.log.append("s1", { kind: "user.message", text: "three" });
      const texts = (after: number) =>
        store.log
          .entriesOfKindAfter("s1", "user.message", after)
          .map(({ entry }) => (entry.kind === "user.message" ? entry.text : entry.kind));
      expect(texts(0)).toEqual(["one", "two", "three"]);
      expect(texts(first.seq)).toEqual(["two", "three"]);
      expect(store.log.entriesOfKindAfter("s1", "interaction.requested", 0)).toHaveLength(2);
    });

    it("[S1] keeps interactions and drafts: the open requests, the latest draft, the latest of a kind", () => {
      store.log.append("s1", question("q1"));
      store.log.append("s1", question("q2"));
      store.log.append("s1", {
        kind: "interaction.draft",
        interactionId: "q1",
        draft: { page: 0, picks: {}, other: {} },
      });
      const latestDraft = store.log.append("s1", {
        kind: "interaction.draft",
        interactionId: "q1",
        draft: { page: 0, picks: { "Question q1?": ["B"] }, other: {} },
      });
      store.log.append("s1", {
        kind: "interaction.resolved",
        interactionId: "q2",
        outcome: { type: "cancelled" },
      });
      const end = store.log.requireSession("s1").lastSeq + 1;
      const open = store.log.openRequests("s1", end);
      expect(open.map((stored) => stored.entry)).toEqual([question("q1")]);
      expect(store.log.latestOfInteraction("s1", "q1", "interaction.draft", end)).toEqual(
        latestDraft,
      );
      expect(
        store.log.latestOfInteraction("s1", "q1", "interaction.draft", latestDraft.seq)?.seq,
      ).toBe(latestDraft.seq - 1);
      expect(store.log.latestOfKind("s1", "interaction.requested", end)?.entry).toEqual(
        question("q2"),
      );
    });

    it("[S1] an interaction resolves exactly once: a second resolution is refused and writes nothing", () => {
      store.log.append("s1", question("q1"));
      const first = store.log.append("s1", {
        kind: "interaction.resolved",
        interactionId: "q1",
        outcome: { type: "answered", answers: { "Question q1?": { labels: ["A"] } }, auto: false },
      });
      const heard: number[] = [];
      store.log.subscribe((_sessionId, stored) => heard.push(stored.seq));
      expect(() =>
        store.log.append("s1", {
          kind: "interaction.resolved",
          interactionId: "q1",
          outcome: { type: "cancelled" },
        }),
      ).toThrow(AlreadyResolvedError);
      expect(heard).toEqual([]);
      expect(store.log.requireSession("s1").lastSeq).toBe(first.seq);
      const resolutions = store.log
        .entriesAfter("s1", 0)
        .filter((stored) => stored.entry.kind === "interaction.resolved");
      expect(resolutions).toEqual([first]);
    });

    it("[S1] a second store on the same database sees the first one's resolution and cannot resolve again", () => {
      const other = open();
      store.log.append("s1", question("q1"));
      other.log.append("s1", {
        kind: "interaction.resolved",
        interactionId: "q1",
        outcome: { type: "cancelled" },
      });
      expect(() =>
        store.log.append("s1", {
          kind: "interaction.resolved",
          interactionId: "q1",
          outcome: { type: "answered", answers: {}, auto: false },
        }),
      ).toThrow(AlreadyResolvedError);
      expect(store.log.openRequests("s1", 100)).toEqual([]);
    });

    it("[X2][S2] a question takes one late answer: a second store on the same database is refused and writes nothing", () => {
      const other = open();
      store.log.append("s1", question("q1"));
      store.log.append("s1", question("q2"));
      const first = store.log.append("s1", lateAnswer("q1", "A"));
      const heard: number[] = [];
      other.log.subscribe((_sessionId, stored) => heard.push(stored.seq));
      expect(() => other.log.append("s1", lateAnswer("q1", "B"))).toThrow(AlreadyLateAnsweredError);
      expect(() => store.log.append("s1", lateAnswer("q1", "B"))).toThrow(AlreadyLateAnsweredError);
      expect(heard).toEqual([]);
      expect(other.log.requireSession("s1").lastSeq).toBe(first.seq);
      // Another question's late answer, and plain messages, are not held back by it.
      other.log.append("s1", lateAnswer("q2", "B"));
      other.log.append("s1", { kind: "user.message", text: "thanks" });
      other.log.append("s1", { kind: "user.message", text: "thanks again" });
      const late = store.log
        .entriesAfter("s1", 0)
        .flatMap(({ entry }) =>
          entry.kind === "user.message" && entry.lateAnswerFor ? [entry.lateAnswerFor] : [],
        );
      expect(late).toEqual(["q1", "q2"]);
    });

    it("[S1] keeps the session row in step with its log: mode, model, rename, order and delete", () => {
      store.log.append("s1", { kind: "session.modelChanged", model: "openai/gpt" });
      store.log.append("s1", {
        kind: "session.modeChanged",
        mode: { permissionMode: "edit", planEnabled: true },
      });
      expect(store.log.requireSession("s1")).toMatchObject({
        model: "openai/gpt",
        mode: { permissionMode: "edit", planEnabled: true },
      });
      clock.advance(10);
      store.log.createSession({ id: "s2", title: "second", model: "m", mode: build });
      expect(store.log.listSessions().map((session) => session.id)).toEqual(["s2", "s1"]);
      expect(store.log.rename("s1", "Renamed").title).toBe("Renamed");
      store.todos.replace("s1", [{ content: "a", status: "pending", priority: "high" }]);
      store.log.deleteSession("s1");
      expect(store.log.getSession("s1")).toBeUndefined();
      expect(store.log.entriesAfter("s1", 0)).toEqual([]);
      expect(store.todos.read("s1")).toEqual([]);
      expect(() => store.log.deleteSession("s1")).toThrow(SessionNotFoundError);
    });

    it("[S1] replaces a todo list whole; a refused list leaves the old one", () => {
      const todos = [
        { content: "read", status: "completed", priority: "high" },
        { content: "write", status: "in_progress", priority: "medium" },
      ] as const;
      expect(store.todos.replace("s1", todos)).toEqual({ oldTodos: [], todos });
      expect(() =>
        store.todos.replace("s1", [
          { content: "ok", status: "pending", priority: "low" },
          { content: "", status: "pending", priority: "low" },
        ]),
      ).toThrow();
      expect(store.todos.read("s1")).toEqual(todos);
      expect(() => store.todos.replace("nope", todos)).toThrow(SessionNotFoundError);
    });

    it("[S1] keeps settings, push subscriptions, MCP events and agent sessions across a reopen", async () => {
      store.settings.update({ autoContinue: false });
      const device = {
        endpoint: "https://push.example/1",
        keys: { p256dh: "k", auth: "a" },
        deviceLabel: "phone",
      };
      store.subscriptions.save(device, clock.now());
      store.subscriptions.save({ ...device, deviceLabel: "tablet" }, clock.now());
      store.subscriptions.save({ ...device, endpoint: "https://push.example/2" }, clock.now());
      store.subscriptions.remove("https://push.example/2");
      const primed = await store.mcpEvents.storeEvent("stream-1", {} as never);
      await store.mcpEvents.storeEvent("stream-1", { jsonrpc: "2.0", method: "ping", id: 1 });
      store.agents.remember("codex", "/repo", "s1");
      store.close();

      const reopened = open();
      expect(reopened.settings.get().autoContinue).toBe(false);
      expect(reopened.subscriptions.list()).toEqual([{ ...device, deviceLabel: "tablet" }]);
      const replayed: unknown[] = [];
      const stream = await reopened.mcpEvents.replayEventsAfter(primed, {
        send: async (_id, message) => {
          replayed.push(message);
        },
      });
      expect(stream).toBe("stream-1");
      expect(replayed).toEqual([{ jsonrpc: "2.0", method: "ping", id: 1 }]);
      expect(reopened.agents.sessionOf("codex", "/repo")).toBe("s1");
      expect(reopened.log.requireSession("s1").lastSeq).toBe(1);
    });

    it("[S3][S1] keeps named tokens as hashes; another connection's revocation moves the change stamp; push devices stay within their limit", () => {
      const tokens = new NamedTokenStore(store.db);
      const token = tokens.issue("Alice", 1_000);
      expect(tokens.live()).toEqual(new Map([[hashNamedToken(token), "Alice"]]));
      expect(() => tokens.issue("Alice", 2_000)).toThrow(NamedTokenError);

      const other = open();
      const seen = tokens.changeStamp();
      expect(new NamedTokenStore(other.db).revoke("Alice", 3_000)).toBe(true);
      expect(tokens.changeStamp()).not.toBe(seen);
      expect(tokens.live().size).toBe(0);
      expect(tokens.list()).toEqual([{ name: "Alice", createdAt: 1_000, revokedAt: 3_000 }]);

      const device = (n: number) => ({
        endpoint: `https://push.example/${n}`,
        keys: { p256dh: "k", auth: "a" },
        deviceLabel: `device ${n}`,
      });
      expect(store.subscriptions.saveWithin(device(1), 0, 2)).toBe(true);
      expect(store.subscriptions.saveWithin(device(2), 0, 2)).toBe(true);
      expect(store.subscriptions.saveWithin(device(3), 0, 2)).toBe(false);
      expect(store.subscriptions.saveWithin({ ...device(1), deviceLabel: "renamed" }, 0, 2)).toBe(
        true,
      );
    });
  });
}
