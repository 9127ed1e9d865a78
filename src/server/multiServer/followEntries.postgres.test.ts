import { ASK_COLOUR_TURN } from "../testing/scenarioTurns.ts";
import { kindIs, sessionOnBoth, useServersOnPostgres } from "../testing/serversOnPostgres.ts";

const scenario = `
turns:${ASK_COLOUR_TURN}
`;

describe("[S2] two servers on one PostgreSQL follow each other's entries", () => {
  const servers = useServersOnPostgres(scenario);

  async function twoServers() {
    const { started } = await servers.start(2);
    const [a, b] = started as [(typeof started)[0], (typeof started)[0]];
    return { a: a.server, b: b.server, onA: a.client, onB: b.client };
  }

  it("[S2] a question asked through A shows on B's socket; answered on A it leaves B; B's late answer is refused and changes nothing", async () => {
    const { a, b, onA, onB } = await twoServers();
    // B's page learns of the session from B's server, then opens it there.
    const sessionId = await sessionOnBoth(onA, onB, "shared");

    onA.send({ type: "prompt", sessionId, text: "ask me" });
    const onBRequested = await onB.next("event", kindIs(sessionId, "interaction.requested"));
    if (onBRequested.entry.kind !== "interaction.requested") throw new Error("unreachable");
    const { interactionId } = onBRequested.entry.request;
    expect(
      b.server.interactions.pending(sessionId).map((view) => view.request.interactionId),
    ).toEqual([interactionId]);
    expect(b.server.sessions.summaries().find((s) => s.id === sessionId)?.pendingInteractions).toBe(
      1,
    );

    onA.send({
      type: "interaction.answer",
      interactionId,
      answers: { "Which colour?": { labels: ["Red"] } },
    });
    expect(await onA.next("receipt")).toMatchObject({ ok: true });
    const resolvedOnB = await onB.next("event", kindIs(sessionId, "interaction.resolved"));
    expect(resolvedOnB.entry).toMatchObject({ interactionId, outcome: { type: "answered" } });
    expect(b.server.interactions.pending(sessionId)).toEqual([]);

    onB.send({
      type: "interaction.answer",
      interactionId,
      answers: { "Which colour?": { labels: ["Blue"] } },
    });
    expect(await onB.next("receipt")).toMatchObject({
      ok: false,
      code: "ALREADY_ANSWERED",
      message: "this interaction is already resolved",
    });
    // A's turn went on with A's answer; B's page saw the same entries in the same order.
    const noted = await onB.next("event", kindIs(sessionId, "assistant.message"));
    expect(noted.entry).toMatchObject({ text: expect.stringContaining("Red") });
    await onA.next("event", kindIs(sessionId, "turn.ended"));
    const entries = a.server.sessions.summaries().find((s) => s.id === sessionId);
    expect(entries?.pendingInteractions).toBe(0);
    const seen = onB.frames.flatMap((frame) =>
      frame.type === "event" && frame.sessionId === sessionId ? [frame.seq] : [],
    );
    expect(seen).toEqual([...seen].sort((x, y) => x - y));
    expect(new Set(seen).size).toBe(seen.length);
    const resolutions = onB.frames.filter(
      (frame) => frame.type === "event" && frame.entry.kind === "interaction.resolved",
    );
    expect(resolutions).toHaveLength(1);
  }, 30_000);

  it("[S2] a question of A's turn answered on B reaches A's turn, which goes on with B's answer", async () => {
    const { a, onA, onB } = await twoServers();
    const sessionId = await sessionOnBoth(onA, onB, "answered elsewhere");

    onA.send({ type: "prompt", sessionId, text: "ask me" });
    const requested = await onB.next("event", kindIs(sessionId, "interaction.requested"));
    if (requested.entry.kind !== "interaction.requested") throw new Error("unreachable");
    onB.send({
      type: "interaction.answer",
      interactionId: requested.entry.request.interactionId,
      answers: { "Which colour?": { labels: ["Blue"] } },
    });
    expect(await onB.next("receipt")).toMatchObject({ ok: true });
    await onA.next("event", kindIs(sessionId, "interaction.resolved"));
    const noted = await onA.next("event", kindIs(sessionId, "assistant.message"));
    expect(noted.entry).toMatchObject({ text: expect.stringContaining("Blue") });
    expect(a.server.interactions.pending(sessionId)).toEqual([]);
  }, 30_000);

  it("[S2][Q8] stop pressed on B stops the turn A runs, and its question with it", async () => {
    const { a, b, onA, onB } = await twoServers();
    const sessionId = await sessionOnBoth(onA, onB, "stopped elsewhere");
    onA.send({ type: "prompt", sessionId, text: "ask me" });
    await onB.next("event", kindIs(sessionId, "interaction.requested"));
    expect(a.server.sessions.isRunning(sessionId)).toBe(true);

    onB.send({ type: "turn.cancel", sessionId });
    const ended = await onB.next("event", kindIs(sessionId, "turn.ended"));
    expect(ended.entry).toEqual({ kind: "turn.ended", reason: "cancelled" });
    const resolved = onB.frames.filter(
      (frame) => frame.type === "event" && frame.entry.kind === "interaction.resolved",
    );
    expect(resolved).toHaveLength(1);
    expect(resolved[0]).toMatchObject({ entry: { outcome: { type: "aborted" } } });
    expect(a.server.sessions.isRunning(sessionId)).toBe(false);
    expect(a.server.interactions.pending(sessionId)).toEqual([]);
    expect(b.server.interactions.pending(sessionId)).toEqual([]);
  }, 30_000);
  it("[S2] a session renamed, then deleted, on A is renamed, then removed, on B's page", async () => {
    const { b, onA, onB } = await twoServers();
    onA.send({ type: "session.create", title: "before" });
    const sessionId = (await onA.next("snapshot")).session.id;
    await onB.next("session.upserted", (frame) => frame.session.id === sessionId);

    onA.send({ type: "session.rename", sessionId, title: "after" });
    const renamed = await onB.next(
      "session.upserted",
      (frame) => frame.session.id === sessionId && frame.session.title === "after",
    );
    expect(renamed.session.title).toBe("after");

    onA.send({ type: "session.delete", sessionId });
    await onB.next("session.removed", (frame) => frame.sessionId === sessionId);
    expect(b.server.sessions.summaries().some((s) => s.id === sessionId)).toBe(false);
  }, 30_000);
});
