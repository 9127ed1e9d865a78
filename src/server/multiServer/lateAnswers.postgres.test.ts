import pg from "pg";
import { ASK_COLOUR_TURN } from "../testing/scenarioTurns.ts";
import { kindIs, sessionOnBoth, useServersOnPostgres } from "../testing/serversOnPostgres.ts";

const scenario = `
turns:${ASK_COLOUR_TURN}
  - steps:
      - say: "Thanks for the late answer."
`;

describe("[X2][S2] a late answer is accepted once across servers", () => {
  const servers = useServersOnPostgres(scenario);

  it("[X2][S2] 'Answer now' sent to two servers at once: one takes it, the other refuses it as a second late answer", async () => {
    const { dbPath, started } = await servers.start(2, {
      timings: { graceMs: 50, deadlineMs: 300 },
    });
    const [a, b] = started as [(typeof started)[0], (typeof started)[0]];
    const sessionId = await sessionOnBoth(a.client, b.client, "late");

    a.client.send({ type: "prompt", sessionId, text: "ask me" });
    const resolved = await b.client.next("event", kindIs(sessionId, "interaction.resolved"));
    expect(resolved.entry).toMatchObject({ outcome: { type: "answered", auto: true } });
    const interactionId =
      resolved.entry.kind === "interaction.resolved" ? resolved.entry.interactionId : "";
    await a.client.next("event", kindIs(sessionId, "turn.ended"));
    await b.client.next("event", kindIs(sessionId, "turn.ended"));

    const late = (label: string) => ({
      type: "interaction.lateAnswer" as const,
      interactionId,
      answers: { "Which colour?": { labels: [label] } },
    });
    a.client.send(late("Red"));
    b.client.send(late("Blue"));
    const receipts = await Promise.all([a.client.next("receipt"), b.client.next("receipt")]);
    const refused = receipts.filter((receipt) => !receipt.ok);
    expect(receipts.filter((receipt) => receipt.ok)).toHaveLength(1);
    expect(refused).toEqual([
      {
        type: "receipt",
        interactionId,
        ok: false,
        code: "ALREADY_ANSWERED",
        message: "a late answer was already given",
      },
    ]);
    // The accepted one starts the turn that tells the agent; it ends before the servers stop.
    await a.client.next("event", kindIs(sessionId, "turn.ended"));

    const direct = new pg.Client({ connectionString: dbPath });
    await direct.connect();
    const messages = await direct.query(
      "SELECT count(*)::int AS n FROM entries WHERE kind = 'user.message' AND body LIKE '%lateAnswerFor%'",
    );
    await direct.end();
    expect(messages.rows).toEqual([{ n: 1 }]);
  }, 30_000);
});
