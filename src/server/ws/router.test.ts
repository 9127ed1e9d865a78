import { MAX_FRAME_BYTES, PROTOCOL_VERSION } from "../../protocol/index.ts";
import { useScenarioServer } from "../testing/scenarioServer.ts";
import { ASK_COLOUR_TURN } from "../testing/scenarioTurns.ts";
import { TestClient } from "../testing/wsClient.ts";

const scenario = `
turns:${ASK_COLOUR_TURN}
  - match: "answered after all"
    steps:
      - say: "Thanks for the late answer."
  - steps:
      - say: Let me check.
        tools: [{ name: Read, input: { path: README.md } }]
      - say: "Found {{result}}"
        delayMs: 1
`;

describe("WebSocket protocol", () => {
  const fixture = useScenarioServer(
    scenario,
    { timings: { graceMs: 5, deadlineMs: 30 } },
    "ws.yaml",
  );
  const { server } = fixture;
  const greeted = async () => {
    const opened = await TestClient.greeted(server().wsUrl, server().browserHeaders);
    fixture.track(opened.client);
    return opened;
  };
  const createSession = async (client: TestClient) => {
    client.send({ type: "session.create", title: "test" });
    return (await client.next("snapshot")).session.id;
  };

  it("[R2] answers malformed JSON, unknown types and bad fields with error frames and keeps the connection", async () => {
    const client = await TestClient.open(server().wsUrl, server().browserHeaders);
    fixture.track(client);
    client.send("{not json");
    expect(await client.next("error")).toMatchObject({ code: "BAD_JSON" });
    client.send({ type: "launch.missiles" });
    expect(await client.next("error")).toMatchObject({
      code: "UNKNOWN_TYPE",
      ref: "launch.missiles",
    });
    client.send([1, 2]);
    expect(await client.next("error")).toMatchObject({ code: "BAD_FRAME" });
    client.send({ type: "prompt", sessionId: 5, text: "" });
    const bad = await client.next("error");
    expect(bad.code).toBe("BAD_FRAME");
    expect(bad.message).toMatch(/sessionId/);
    expect(bad.message).toMatch(/text/);
    client.send({ type: "hello", protocol: PROTOCOL_VERSION, extra: true });
    expect(await client.next("error")).toMatchObject({ code: "BAD_FRAME", ref: "hello" });
    client.send({ type: "hello", protocol: PROTOCOL_VERSION });
    expect(await client.next("welcome")).toMatchObject({ protocol: PROTOCOL_VERSION });
  });

  it("[R2] requires hello first, with the same protocol version", async () => {
    const client = await TestClient.open(server().wsUrl, server().browserHeaders);
    fixture.track(client);
    client.send({ type: "session.create" });
    expect(await client.next("error")).toMatchObject({ code: "NOT_HELLO" });
    client.send({ type: "hello", protocol: PROTOCOL_VERSION + 1 });
    expect(await client.next("error")).toMatchObject({ code: "PROTOCOL_MISMATCH" });
    client.send({ type: "hello", protocol: PROTOCOL_VERSION });
    const welcome = await client.next("welcome");
    expect(welcome.settings).toEqual({ autoContinue: true, theme: "system" });
    expect(welcome.models).toEqual([
      expect.objectContaining({
        provider: "scripted",
        ref: expect.stringMatching(/^scripted\/.*ws\.yaml$/),
      }),
    ]);
    expect(typeof welcome.serverNow).toBe("number");
  });

  it("[R2][B3] a page from before tool.call entries could name a task (protocol 3) is told to reload, not sent entries it cannot read", async () => {
    const client = await TestClient.open(server().wsUrl, server().browserHeaders);
    fixture.track(client);
    client.send({ type: "hello", protocol: 3 });
    expect(await client.next("error")).toMatchObject({ code: "PROTOCOL_MISMATCH" });
  });

  it("[R2] closes an oversize frame with 1009 and other clients keep working", async () => {
    const { client: big } = await greeted();
    const { client: other } = await greeted();
    big.send({ type: "prompt", sessionId: "x", text: "a".repeat(MAX_FRAME_BYTES + 10) });
    expect((await big.waitClosed()).code).toBe(1009);
    other.send({ type: "settings.update", patch: {} });
    expect(await other.next("settings.changed")).toBeTruthy();
  });

  it("[R2] a malformed frame at the size limit is answered with an error frame, not a close, and the socket stays usable", async () => {
    const { client } = await greeted();
    const frame = JSON.stringify({ type: "prompt", sessionId: 5, text: "" });
    // Padded with whitespace to exactly the limit: still JSON, still the wrong shape.
    client.send(frame + " ".repeat(MAX_FRAME_BYTES - frame.length));
    expect(await client.next("error")).toMatchObject({ code: "BAD_FRAME", ref: "prompt" });
    client.send({ type: "settings.update", patch: {} });
    expect(await client.next("settings.changed")).toBeTruthy();
  });

  it("creates a session, announces it to everyone and plays a prompt as stored events", async () => {
    const { client: alice } = await greeted();
    const { client: bob } = await greeted();
    alice.send({ type: "session.create", title: "first", mode: "plan" });
    const upserted = await bob.next("session.upserted");
    expect(upserted.session).toMatchObject({
      title: "first",
      mode: { permissionMode: "build", planEnabled: true },
      pendingInteractions: 0,
    });
    const snapshot = await alice.next("snapshot");
    expect(snapshot.session.id).toBe(upserted.session.id);
    expect(snapshot.entries.map((e) => e.entry.kind)).toEqual(["session.created"]);
    const id = snapshot.session.id;

    alice.send({ type: "prompt", sessionId: id, text: "what is in the readme?" });
    await alice.next("event", (f) => f.entry.kind === "turn.ended");
    const kinds = alice.events(id).map((e) => e.entry.kind);
    expect(kinds).toEqual([
      "user.message",
      "turn.started",
      "user.message", // P6: the session is in plan mode, so the first request brings its reminder
      "assistant.message",
      "tool.call",
      "tool.result",
      "assistant.message",
      "turn.ended",
    ]);
    expect(alice.events(id)[2]?.entry).toMatchObject({ synthetic: true, reminder: "plan_mode" });
    expect(alice.events(id).map((e) => e.seq)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    expect(alice.events(id).at(-2)?.entry).toEqual({
      kind: "assistant.message",
      text: "Found 1\t# Test workspace\n",
    });
    expect(alice.frames.some((f) => f.type === "assistant.delta" && f.sessionId === id)).toBe(true);
    expect(bob.events(id)).toEqual([]);
  });

  it("[W3] resume sends exactly the entries after each lastSeq, in order", async () => {
    const { client: first } = await greeted();
    const id = await createSession(first);
    first.send({ type: "prompt", sessionId: id, text: "read" });
    await first.next("event", (f) => f.entry.kind === "turn.ended");
    const lastSeq = first.events(id).at(-1)!.seq;
    first.close();

    const { client: writer } = await greeted();
    writer.send({ type: "session.open", sessionId: id });
    await writer.next("snapshot");
    writer.send({ type: "prompt", sessionId: id, text: "read again" });
    await writer.next("event", (f) => f.entry.kind === "turn.ended");
    const all = writer.events(id);

    const back = await TestClient.open(server().wsUrl, server().browserHeaders);
    fixture.track(back);
    back.send({
      type: "hello",
      protocol: PROTOCOL_VERSION,
      resume: [{ sessionId: id, lastSeq: lastSeq - 2 }],
    });
    await back.next("welcome");
    await back.next("event", (f) => f.seq === all.at(-1)!.seq);
    expect(back.events(id).map((e) => e.seq)).toEqual(
      Array.from({ length: all.at(-1)!.seq - lastSeq + 2 }, (_, i) => lastSeq - 1 + i),
    );

    back.send({ type: "session.open", sessionId: id, lastSeq: lastSeq + 1 });
    const partial = await back.next("snapshot");
    expect(partial.entries[0]!.seq).toBe(lastSeq + 2);
  });

  it("reports unknown sessions and models, and keeps going", async () => {
    const { client } = await greeted();
    client.send({ type: "prompt", sessionId: "sess_missing", text: "hi" });
    expect(await client.next("error")).toMatchObject({ code: "SESSION_NOT_FOUND", ref: "prompt" });
    client.send({
      type: "hello",
      protocol: PROTOCOL_VERSION,
      resume: [{ sessionId: "sess_gone", lastSeq: 0 }],
    });
    expect(await client.next("error")).toMatchObject({
      code: "SESSION_NOT_FOUND",
      ref: "sess_gone",
    });
    const id = await createSession(client);
    client.send({ type: "model.set", sessionId: id, model: "nobody/nothing" });
    expect(await client.next("error")).toMatchObject({ code: "BAD_MODEL" });
    client.send({ type: "mode.set", sessionId: id, mode: "yolo" });
    const changed = await client.next("event", (f) => f.entry.kind === "session.modeChanged");
    expect(changed.entry).toEqual({
      kind: "session.modeChanged",
      mode: { permissionMode: "yolo", planEnabled: false },
    });
  });

  it("[A5] broadcasts settings changes to every client", async () => {
    const { client: a } = await greeted();
    const { client: b } = await greeted();
    a.send({ type: "settings.update", patch: { theme: "dark" } });
    expect((await b.next("settings.changed")).settings).toEqual({
      autoContinue: true,
      theme: "dark",
    });
    a.send({ type: "settings.update", patch: { theme: "system" } });
    await b.next("settings.changed", (f) => f.settings.theme === "system");
  });

  it("[R3] answers interaction frames with receipts; a second answer is rejected", async () => {
    const { client } = await greeted();
    const id = await createSession(client);
    client.send({ type: "settings.update", patch: { autoContinue: false } });
    await client.next("settings.changed");
    client.send({ type: "prompt", sessionId: id, text: "ask me" });
    const requested = await client.next("event", (f) => f.entry.kind === "interaction.requested");
    const interactionId =
      requested.entry.kind === "interaction.requested" ? requested.entry.request.interactionId : "";
    const upsert = await client.next(
      "session.upserted",
      (f) => f.session.id === id && f.session.pendingInteractions === 1,
    );
    expect(upsert.session.pendingInteractions).toBe(1);
    client.send({ type: "interaction.touch", interactionId });
    expect(await client.next("receipt")).toEqual({ type: "receipt", interactionId, ok: true });
    client.send({
      type: "interaction.answer",
      interactionId,
      answers: { "Which colour?": { labels: ["Blue"] } },
    });
    expect(await client.next("receipt")).toEqual({ type: "receipt", interactionId, ok: true });
    client.send({ type: "interaction.answer", interactionId, answers: {} });
    expect(await client.next("receipt")).toMatchObject({
      interactionId,
      ok: false,
      code: "ALREADY_ANSWERED",
    });
    await client.next("event", (f) => f.entry.kind === "turn.ended");
    client.send({
      type: "interaction.lateAnswer",
      interactionId,
      answers: { "Which colour?": { labels: ["Red"] } },
    });
    expect(await client.next("receipt")).toMatchObject({ ok: false });
    client.send({ type: "settings.update", patch: { autoContinue: true } });
    await client.next("settings.changed");
  });

  it("[X2] a late answer to an auto-continued question reaches the agent as a follow-up message", async () => {
    const { client } = await greeted();
    const id = await createSession(client);
    client.send({ type: "prompt", sessionId: id, text: "ask me" });
    const resolved = await client.next("event", (f) => f.entry.kind === "interaction.resolved");
    expect(resolved.entry).toMatchObject({
      outcome: { type: "answered", answers: {}, auto: true },
    });
    const interactionId =
      resolved.entry.kind === "interaction.resolved" ? resolved.entry.interactionId : "";
    await client.next("event", (f) => f.entry.kind === "turn.ended");

    client.send({
      type: "interaction.lateAnswer",
      interactionId,
      answers: { "Which colour?": { labels: ["Red"] } },
    });
    expect(await client.next("receipt")).toEqual({ type: "receipt", interactionId, ok: true });
    const message = await client.next(
      "event",
      (f) => f.entry.kind === "user.message" && f.entry.synthetic === true,
    );
    expect(message.entry.kind === "user.message" && message.entry.text).toMatch(/Red/);
    const reply = await client.next(
      "event",
      (f) => f.entry.kind === "assistant.message" && f.seq > message.seq,
    );
    expect(reply.entry).toEqual({ kind: "assistant.message", text: "Thanks for the late answer." });
    client.send({
      type: "interaction.lateAnswer",
      interactionId,
      answers: { "Which colour?": { labels: ["Blue"] } },
    });
    expect(await client.next("receipt")).toMatchObject({ ok: false, code: "ALREADY_ANSWERED" });
  });

  it("cancels a running turn on request", async () => {
    const { client } = await greeted();
    const id = await createSession(client);
    client.send({ type: "settings.update", patch: { autoContinue: false } });
    await client.next("settings.changed");
    client.send({ type: "prompt", sessionId: id, text: "ask" });
    await client.next("event", (f) => f.entry.kind === "interaction.requested");
    client.send({ type: "turn.cancel", sessionId: id });
    const ended = await client.next("event", (f) => f.entry.kind === "turn.ended");
    expect(ended.entry).toEqual({ kind: "turn.ended", reason: "cancelled" });
    client.send({ type: "settings.update", patch: { autoContinue: true } });
    await client.next("settings.changed");
  });
});
