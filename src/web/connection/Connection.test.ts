import { describe, expect, it } from "vitest";
import { PROTOCOL_VERSION, type ServerFrame } from "../../protocol/index.ts";
import { welcomeFrame } from "../store/fixtures.ts";
import type { ConnectionStatus } from "../store/types.ts";
import { backoffDelay } from "./backoff.ts";
import { Connection, type ConnectionOptions, socketUrl } from "./Connection.ts";
import { FakeSocket } from "./FakeSocket.ts";

function harness(overrides: Partial<ConnectionOptions> = {}) {
  const sockets: FakeSocket[] = [];
  const frames: ServerFrame[] = [];
  const statuses: ConnectionStatus[] = [];
  const logs: string[] = [];
  const scheduled: { callback: () => void; ms: number }[] = [];
  let now = 1_000;
  const connection = new Connection({
    url: "ws://127.0.0.1:1234/ws",
    createSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    resume: () => [],
    onFrame: (frame) => frames.push(frame),
    onStatus: (status) => statuses.push(status),
    now: () => now,
    random: () => 1,
    timers: {
      setTimeout: (callback, ms) => scheduled.push({ callback, ms }),
      clearTimeout: () => {},
    },
    log: (message) => logs.push(message),
    ...overrides,
  });
  return {
    connection,
    sockets,
    frames,
    statuses,
    logs,
    scheduled,
    advance: (ms: number) => {
      now += ms;
    },
    latest: () => sockets.at(-1)!,
    fireRetry: () => scheduled.shift()!.callback(),
  };
}

describe("Connection", () => {
  it("[A6] matches the welcome's server time to the middle of the hello round trip", () => {
    const times: (number | undefined)[] = [];
    const h = harness({ onFrame: (_frame, at) => times.push(at) });
    h.connection.start();
    h.latest().open();
    h.advance(2_000);
    h.latest().receive(welcomeFrame({ serverNow: 9_000 }));
    h.latest().receive(welcomeFrame({ serverNow: 9_500 }));
    // Opened at 1,000, welcomed at 3,000; a second welcome has no hello of its own.
    expect(times).toEqual([2_000, undefined]);
  });

  it("[W3] says hello with the protocol version and a resume point per loaded session", () => {
    const h = harness({ resume: () => [{ sessionId: "s1", lastSeq: 7 }] });
    h.connection.start();
    h.latest().open();
    expect(h.latest().sentFrames()).toEqual([
      { type: "hello", protocol: PROTOCOL_VERSION, resume: [{ sessionId: "s1", lastSeq: 7 }] },
    ]);
  });

  it("says hello without resume when nothing is loaded", () => {
    const h = harness();
    h.connection.start();
    h.latest().open();
    expect(h.latest().sentFrames()).toEqual([{ type: "hello", protocol: PROTOCOL_VERSION }]);
  });

  it("[U4] names this tab's device in hello", () => {
    const device = { id: "dev-1", label: "Chrome on Android" };
    const h = harness({ device: () => device });
    h.connection.start();
    h.latest().open();
    expect(h.latest().sentFrames()).toEqual([
      { type: "hello", protocol: PROTOCOL_VERSION, device },
    ]);
  });

  it("connects to /ws on the page's origin", () => {
    expect(socketUrl({ protocol: "http:", host: "127.0.0.1:4000" })).toBe("ws://127.0.0.1:4000/ws");
    expect(socketUrl({ protocol: "https:", host: "example.test" })).toBe("wss://example.test/ws");
  });

  it("[R2] passes valid frames on and drops invalid ones without throwing", () => {
    const h = harness();
    h.connection.start();
    h.latest().open();
    h.latest().receive("not json");
    h.latest().receive({ type: "event", sessionId: "s1" });
    h.latest().receive({ type: "mystery" });
    h.latest().receive({ type: "receipt", interactionId: "q1", ok: true });
    expect(h.frames).toEqual([{ type: "receipt", interactionId: "q1", ok: true }]);
    expect(h.logs).toHaveLength(3);
  });

  it("[R2] keeps a snapshot with an unreadable entry: the entry becomes an error notice at its seq", () => {
    const h = harness();
    h.connection.start();
    h.latest().open();
    const good = { seq: 1, at: 5, entry: { kind: "user.message", text: "hi" } };
    const bad = { seq: 2, at: 6, entry: { kind: "hologram", text: "?" } };
    const after = { seq: 3, at: 7, entry: { kind: "assistant.message", text: "still here" } };
    h.latest().receive({
      type: "snapshot",
      session: {
        id: "s1",
        title: "t",
        createdAt: 1,
        updatedAt: 2,
        lastSeq: 3,
        model: "scripted/demo",
        mode: { permissionMode: "build", planEnabled: false },
        pendingInteractions: 0,
      },
      entries: [good, bad, after],
    });
    expect(h.frames).toHaveLength(1);
    const frame = h.frames[0]!;
    if (frame.type !== "snapshot") throw new Error(`got ${frame.type}`);
    expect(frame.entries.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(frame.entries[0]).toEqual(good);
    expect(frame.entries[2]).toEqual(after);
    expect(frame.entries[1]!.entry).toMatchObject({ kind: "notice", level: "error" });
    expect(frame.entries[1]!.entry).toHaveProperty(
      "text",
      expect.stringMatching(/^Entry 2 \(hologram\) could not be read: /),
    );
    expect(h.logs).toEqual(["kept a snapshot frame without a bad entry"]);
  });

  it("[R2] keeps an event whose entry is unreadable as an error notice, so no gap opens", () => {
    const h = harness();
    h.connection.start();
    h.latest().open();
    h.latest().receive({
      type: "event",
      sessionId: "s1",
      seq: 4,
      at: 9,
      entry: { kind: "user.message", text: 42 },
    });
    expect(h.frames).toEqual([
      {
        type: "event",
        sessionId: "s1",
        seq: 4,
        at: 9,
        entry: {
          kind: "notice",
          level: "error",
          text: expect.stringContaining("Entry 4 (user.message) could not be read: entry.text"),
        },
      },
    ]);
  });

  it("[R2] asks for batches in hello when told to, and applies a batch's frames in order, each checked on its own", () => {
    const h = harness({ batches: true });
    h.connection.start();
    h.latest().open();
    expect(h.latest().sentFrames()).toEqual([
      { type: "hello", protocol: PROTOCOL_VERSION, batches: true },
    ]);
    const call = {
      type: "event",
      sessionId: "s1",
      seq: 4,
      at: 9,
      entry: { kind: "tool.call", callId: "c1", name: "Read", input: {} },
    };
    h.latest().receive({
      type: "batch",
      frames: [
        call,
        { type: "mystery" },
        { type: "event", sessionId: "s1", seq: 5, at: 9, entry: { kind: "user.message", text: 1 } },
        { type: "receipt", interactionId: "q1", ok: true },
      ],
    });
    expect(h.frames.map((f) => f.type)).toEqual(["event", "event", "receipt"]);
    expect(h.frames[0]).toEqual(call);
    expect(h.frames[1]).toMatchObject({ seq: 5, entry: { kind: "notice", level: "error" } });
    expect(h.logs).toEqual(["dropped an invalid frame", "kept a event frame without a bad entry"]);
  });

  it("[R2] drops a batch whose envelope is not a ServerBatch, and a batch inside a batch", () => {
    const h = harness({ batches: true });
    h.connection.start();
    h.latest().open();
    const receipt = { type: "receipt", interactionId: "q1", ok: true };
    h.latest().receive({ type: "batch", frames: [receipt, receipt], extra: 1 });
    h.latest().receive({ type: "batch", frames: receipt });
    h.latest().receive({ type: "batch", frames: [receipt] });
    h.latest().receive({
      type: "batch",
      frames: [{ type: "batch", frames: [receipt, receipt] }, receipt],
    });
    expect(h.frames).toEqual([receipt]);
    expect(h.logs).toEqual([
      "dropped an invalid batch",
      "dropped an invalid batch",
      "dropped an invalid batch",
      "dropped an invalid frame",
    ]);
  });

  it("survives a frame handler that throws", () => {
    const h = harness({
      onFrame: () => {
        throw new Error("boom");
      },
    });
    h.connection.start();
    h.latest().open();
    expect(() =>
      h.latest().receive({ type: "receipt", interactionId: "q", ok: true }),
    ).not.toThrow();
    expect(h.logs).toEqual(["failed to apply a receipt frame"]);
  });

  it("[W3] reconnects by itself with a delay that doubles and then caps", () => {
    const h = harness();
    h.connection.start();
    for (let i = 0; i < 8; i += 1) {
      h.latest().drop();
      h.fireRetry();
    }
    const delays = h.statuses
      .filter(
        (s): s is Extract<ConnectionStatus, { status: "reconnecting" }> =>
          s.status === "reconnecting",
      )
      .map((s) => s.retryAt - 1_000);
    expect(delays).toEqual([250, 500, 1_000, 2_000, 4_000, 8_000, 10_000, 10_000]);
    expect(h.sockets).toHaveLength(9);
  });

  it("[W3] reports the attempt number and starts over after a stable open", () => {
    const h = harness();
    h.connection.start();
    h.latest().drop();
    h.fireRetry();
    h.latest().drop();
    expect(h.statuses.at(-1)).toMatchObject({ status: "reconnecting", attempt: 2 });
    h.fireRetry();
    h.latest().open();
    h.advance(60_000);
    h.latest().drop();
    expect(h.statuses.at(-1)).toMatchObject({ status: "reconnecting", attempt: 1 });
  });

  it("jitters delays into the upper half of the window", () => {
    expect(backoffDelay(3, 0)).toBe(500);
    expect(backoffDelay(3, 1)).toBe(1_000);
    expect(backoffDelay(50, 0.5)).toBe(7_500);
  });

  it("sends only while open and reports false otherwise", () => {
    const h = harness();
    h.connection.start();
    expect(h.connection.send({ type: "session.create" })).toBe(false);
    h.latest().open();
    expect(h.connection.send({ type: "session.create" })).toBe(true);
    expect(h.latest().sentFrames().at(-1)).toEqual({ type: "session.create" });
  });

  it("stays closed after stop", () => {
    const h = harness();
    h.connection.start();
    h.latest().open();
    h.connection.stop("unauthorized");
    expect(h.statuses.at(-1)).toEqual({ status: "closed", reason: "unauthorized" });
    expect(h.scheduled).toHaveLength(0);
  });
  it("[W8] stops retrying and says the token was refused when the server turns the tab's cookie away", async () => {
    const checks: string[] = [];
    const h = harness({
      checkAccess: async () => {
        checks.push("asked");
        return checks.length === 1 ? "unreachable" : "refused";
      },
    });
    h.connection.start();
    h.latest().drop();
    await Promise.resolve();
    await Promise.resolve();
    // The server is down: the tab keeps trying.
    expect(h.statuses.at(-1)).toMatchObject({ status: "reconnecting", attempt: 1 });
    h.fireRetry();
    h.latest().drop();
    await Promise.resolve();
    await Promise.resolve();
    expect(h.statuses.at(-1)).toEqual({ status: "refused" });
    expect(h.scheduled).toEqual([]);
    expect(h.sockets).toHaveLength(2);
  });

  it("[W8] does not ask about access when an open connection drops (a restart, not a refusal)", async () => {
    let asked = 0;
    const h = harness({
      checkAccess: async () => {
        asked += 1;
        return "refused";
      },
    });
    h.connection.start();
    h.latest().open();
    h.latest().drop();
    await Promise.resolve();
    expect(asked).toBe(0);
    expect(h.statuses.at(-1)).toMatchObject({ status: "reconnecting" });
  });
});
