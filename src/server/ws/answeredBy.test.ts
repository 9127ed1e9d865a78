import { PROTOCOL_VERSION } from "../../protocol/index.ts";
import { useScenarioServer } from "../testing/scenarioServer.ts";
import { ASK_COLOUR_TURN } from "../testing/scenarioTurns.ts";
import { TestClient } from "../testing/wsClient.ts";

const scenario = `
turns:${ASK_COLOUR_TURN}
`;

const phone = { id: "dev-phone", label: "Safari on iPhone" };

describe("who answered, and the inbox over the socket", () => {
  const fixture = useScenarioServer(scenario, {
    timings: { graceMs: 60_000, deadlineMs: 300_000 },
  });
  const { server } = fixture;

  const hello = async (device?: typeof phone) => {
    const client = await TestClient.open(server().wsUrl, server().browserHeaders);
    fixture.track(client);
    client.send({ type: "hello", protocol: PROTOCOL_VERSION, ...(device ? { device } : {}) });
    await client.next("welcome");
    return client;
  };

  const askIn = async (client: TestClient) => {
    client.send({ type: "session.create", title: "colours" });
    const sessionId = (await client.next("snapshot")).session.id;
    client.send({ type: "prompt", sessionId, text: "ask me" });
    const requested = await client.next(
      "event",
      (frame) => frame.sessionId === sessionId && frame.entry.kind === "interaction.requested",
    );
    if (requested.entry.kind !== "interaction.requested") throw new Error("unreachable");
    return { sessionId, interactionId: requested.entry.request.interactionId };
  };

  it("[U4] an answer records the device its tab named in hello", async () => {
    const client = await hello(phone);
    const { sessionId, interactionId } = await askIn(client);
    client.send({
      type: "interaction.answer",
      interactionId,
      answers: { "Which colour?": { labels: ["Red"] } },
    });
    expect(await client.next("receipt")).toMatchObject({ ok: true });
    const resolved = await client.next(
      "event",
      (frame) => frame.sessionId === sessionId && frame.entry.kind === "interaction.resolved",
    );
    expect(resolved.entry).toMatchObject({
      outcome: { type: "answered", by: { deviceId: "dev-phone", label: "Safari on iPhone" } },
    });
  });

  it("[U4] a tab that named no device answers without one, and a bad device is refused", async () => {
    const client = await hello();
    const { sessionId, interactionId } = await askIn(client);
    client.send({ type: "interaction.cancel", interactionId });
    const resolved = await client.next(
      "event",
      (frame) => frame.sessionId === sessionId && frame.entry.kind === "interaction.resolved",
    );
    expect(resolved.entry).toEqual({
      kind: "interaction.resolved",
      interactionId,
      outcome: { type: "cancelled" },
    });

    const bad = await TestClient.open(server().wsUrl, server().browserHeaders);
    fixture.track(bad);
    bad.send({ type: "hello", protocol: PROTOCOL_VERSION, device: { id: "", label: "x" } });
    expect(await bad.next("error")).toMatchObject({ code: "BAD_FRAME" });
  });

  it("[U1] hello is followed by the inbox snapshot, and others hear what starts and stops waiting", async () => {
    const watcher = await hello();
    expect(await watcher.next("inbox.snapshot")).toEqual({ type: "inbox.snapshot", items: [] });
    const asker = await hello();
    const { interactionId } = await askIn(asker);
    const arrived = await watcher.next("inbox.changed", (frame) =>
      frame.upserted.some((item) => item.request.interactionId === interactionId),
    );
    expect(arrived.upserted[0]?.request.kind).toBe("question");
    const late = await hello();
    const snapshot = await late.next("inbox.snapshot");
    expect(snapshot.items.map((item) => item.request.interactionId)).toEqual([interactionId]);

    asker.send({ type: "interaction.cancel", interactionId });
    expect(
      await watcher.next("inbox.changed", (frame) => frame.removed.includes(interactionId)),
    ).toMatchObject({ removed: [interactionId] });
  });

  it("[U1] a tab that follows the session gets its new item without the request, which the event before it carried; a tab that does not gets it whole", async () => {
    const watcher = await hello();
    const asker = await hello();
    const { sessionId, interactionId } = await askIn(asker);

    const slim = await asker.next("inbox.changed", (frame) =>
      (frame.arrived ?? []).some((item) => item.interactionId === interactionId),
    );
    expect(slim.upserted).toEqual([]);
    expect(slim.arrived?.[0]).toMatchObject({ interactionId, sessionId });
    expect(JSON.stringify(slim)).not.toContain("Which colour?");
    const event = asker.frames.findIndex(
      (frame) => frame.type === "event" && frame.entry.kind === "interaction.requested",
    );
    expect(event).toBeGreaterThanOrEqual(0);
    expect(event).toBeLessThan(asker.frames.indexOf(slim));

    const whole = await watcher.next("inbox.changed", (frame) =>
      frame.upserted.some((item) => item.request.interactionId === interactionId),
    );
    expect(whole.arrived).toBeUndefined();
    expect(whole.upserted[0]?.request).toMatchObject({ sessionId, kind: "question" });
  });
});
