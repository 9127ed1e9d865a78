import { useScenarioServer } from "../testing/scenarioServer.ts";
import { ASK_COLOUR_TURN } from "../testing/scenarioTurns.ts";
import { TestClient } from "../testing/wsClient.ts";

const scenario = `
turns:${ASK_COLOUR_TURN}
  - steps:
      - say: "Thanks for the late answer."
`;

describe("late answers across a restart", () => {
  const fixture = useScenarioServer(scenario, { timings: { graceMs: 5, deadlineMs: 30 } });
  const { server } = fixture;
  const greeted = async () => {
    const opened = await TestClient.greeted(server().wsUrl, server().browserHeaders);
    fixture.track(opened.client);
    return opened.client;
  };

  it("[X2] the late answer is stored with its interaction, so a restarted server refuses a second one", async () => {
    const client = await greeted();
    client.send({ type: "session.create", title: "late" });
    const sessionId = (await client.next("snapshot")).session.id;
    client.send({ type: "prompt", sessionId, text: "ask me" });
    const resolved = await client.next("event", (f) => f.entry.kind === "interaction.resolved");
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
    expect(message.entry).toMatchObject({ synthetic: true, lateAnswerFor: interactionId });
    await client.next("event", (f) => f.entry.kind === "turn.ended");

    await server().restart();
    const after = await greeted();
    after.send({
      type: "interaction.lateAnswer",
      interactionId,
      answers: { "Which colour?": { labels: ["Blue"] } },
    });
    expect(await after.next("receipt")).toMatchObject({
      interactionId,
      ok: false,
      code: "ALREADY_ANSWERED",
    });
  });
});
