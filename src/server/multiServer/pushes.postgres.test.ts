import { startLoopbackPushService } from "../push/testing/loopbackPushService.ts";
import { ASK_COLOUR_TURN } from "../testing/scenarioTurns.ts";
import { kindIs, sessionOnBoth, useServersOnPostgres } from "../testing/serversOnPostgres.ts";

const scenario = `
turns:${ASK_COLOUR_TURN}
`;

describe("[U3][S2] a push goes out once across servers", () => {
  const servers = useServersOnPostgres(scenario);

  it("[U3][X5][S2] two servers hear the same question: the device gets one push when it arrives and one when its countdown shows", async () => {
    const service = await startLoopbackPushService();
    try {
      const { started } = await servers.start(2, {
        allowLoopbackPushEndpoints: true,
        timings: { graceMs: 300, deadlineMs: 1_500 },
      });
      const [a, b] = started as [(typeof started)[0], (typeof started)[0]];
      const subscribed = await fetch(`${a.server.origin}/push/subscribe`, {
        method: "POST",
        headers: { ...a.server.browserHeaders, "content-type": "application/json" },
        body: JSON.stringify(service.subscription),
      });
      expect(subscribed.status).toBe(201);
      const sessionId = await sessionOnBoth(a.client, b.client, "pushed once");

      a.client.send({ type: "prompt", sessionId, text: "ask me" });
      const requested = await b.client.next("event", kindIs(sessionId, "interaction.requested"));
      const interactionId =
        requested.entry.kind === "interaction.requested"
          ? requested.entry.request.interactionId
          : "";
      await service.next(2);
      await a.client.next("event", kindIs(sessionId, "turn.ended"));
      await b.client.next("event", kindIs(sessionId, "turn.ended"));
      // A second server's copy would be on its way by now: both heard the question long ago.
      await new Promise((resolveWait) => setTimeout(resolveWait, 300));

      const pushes = service.received.map(({ payload }) => payload as Record<string, unknown>);
      expect(
        pushes.map(({ interactionId: id, deadlineAt }) => [id, deadlineAt !== undefined]),
      ).toEqual([
        [interactionId, false],
        [interactionId, true],
      ]);
    } finally {
      await service.close();
    }
  }, 30_000);
});
