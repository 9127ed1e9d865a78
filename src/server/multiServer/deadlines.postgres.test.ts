import pg from "pg";
import { FakeClock } from "../interactions/fakeClock.ts";
import { CountdownTakenError } from "../store/errors.ts";
import { takeLease } from "../store/postgres/leases.ts";
import { openStore } from "../store/store.ts";
import { ASK_COLOUR_TURN } from "../testing/scenarioTurns.ts";
import { kindIs, sessionOnBoth, useServersOnPostgres } from "../testing/serversOnPostgres.ts";

const scenario = `
turns:${ASK_COLOUR_TURN}
`;

describe("[S2] each deadline fires once across servers", () => {
  const servers = useServersOnPostgres(scenario);

  it("[S2] a deadline's lease goes to one server; the others wait until it runs out; the holder may take it again", async () => {
    const url = await servers.postgres().newDatabase();
    const first = openStore(url, new FakeClock());
    const second = openStore(url, new FakeClock());
    const lease = { key: "int_1", now: 1_000, leaseMs: 10_000 };
    expect(takeLease(first.db, { ...lease, holder: "srv_a" })).toBe(true);
    expect(takeLease(second.db, { ...lease, holder: "srv_b" })).toBe(false);
    expect(takeLease(first.db, { ...lease, holder: "srv_a", now: 2_000 })).toBe(true);
    expect(takeLease(second.db, { ...lease, holder: "srv_b", now: 11_999 })).toBe(false);
    // srv_a died before writing the resolution: once its lease has run out, srv_b fires.
    expect(takeLease(second.db, { ...lease, holder: "srv_b", now: 12_001 })).toBe(true);
    expect(takeLease(first.db, { ...lease, holder: "srv_a", now: 12_002 })).toBe(false);
    // Rows an hour old are dropped as another lease is taken.
    const later = {
      key: "int_2",
      holder: "srv_a",
      now: 12_001 + 3_600_001,
      leaseMs: 10_000,
    };
    expect(takeLease(first.db, later)).toBe(true);
    expect(first.db.all("SELECT interaction_id FROM deadline_leases")).toEqual([
      { interaction_id: "int_2" },
    ]);
    first.close();
    second.close();
  });

  it("[S2][A2] two servers both time a question; when its deadline passes it resolves once, by one lease", async () => {
    const { dbPath, started } = await servers.start(2, {
      timings: { graceMs: 200, deadlineMs: 1_200 },
    });
    const [a, b] = started as [(typeof started)[0], (typeof started)[0]];
    const sessionId = await sessionOnBoth(a.client, b.client, "deadline");

    a.client.send({ type: "prompt", sessionId, text: "ask me" });
    const counting = await b.client.next("event", kindIs(sessionId, "interaction.countdown"));
    expect(counting.entry).toMatchObject({ countdown: { phase: "counting" } });
    const resolved = await b.client.next("event", kindIs(sessionId, "interaction.resolved"));
    expect(resolved.entry).toMatchObject({ outcome: { type: "answered", auto: true } });
    await a.client.next("event", kindIs(sessionId, "turn.ended"));
    await b.client.next("event", kindIs(sessionId, "turn.ended"));

    const direct = new pg.Client({ connectionString: dbPath });
    await direct.connect();
    const resolutions = await direct.query(
      "SELECT count(*)::int AS n FROM entries WHERE kind = 'interaction.resolved'",
    );
    const leases = await direct.query("SELECT holder FROM deadline_leases");
    await direct.end();
    expect(resolutions.rows).toEqual([{ n: 1 }]);
    expect(leases.rows).toHaveLength(1);
    expect(a.server.server.interactions.pending(sessionId)).toEqual([]);
    expect(b.server.server.interactions.pending(sessionId)).toEqual([]);
  }, 30_000);
  it("[S2][A7] two servers restoring one idle session's question both start its countdown: the store writes only the first", async () => {
    const url = await servers.postgres().newDatabase();
    const seed = openStore(url, new FakeClock());
    const { session } = seed.log.createSession({
      id: "sess_mcp",
      title: "asked over MCP",
      model: "mcp/agent",
      mode: { permissionMode: "build", planEnabled: false },
    });
    seed.log.append(session.id, {
      kind: "interaction.requested",
      request: {
        kind: "question",
        interactionId: "int_restored",
        sessionId: session.id,
        toolName: "AskUserQuestion",
        toolCallId: "call_1",
        questions: [
          {
            question: "Which colour?",
            header: "Colour",
            options: [{ label: "Red" }, { label: "Blue" }],
            multiSelect: false,
          },
        ],
        createdAt: 0,
      },
    });
    // Both servers restored it with no countdown yet and both start one: the store takes the first.
    const other = openStore(url, new FakeClock());
    const counting = (startedAt: number) => ({
      kind: "interaction.countdown" as const,
      interactionId: "int_restored",
      countdown: {
        phase: "counting" as const,
        startedAt,
        visibleAt: startedAt + 1_000,
        deadlineAt: startedAt + 8_000,
      },
    });
    seed.log.append(session.id, counting(10));
    expect(() => other.log.append(session.id, counting(20))).toThrow(CountdownTakenError);
    // Later changes of the same countdown (A4's pause) are still written.
    other.log.append(session.id, {
      kind: "interaction.countdown",
      interactionId: "int_restored",
      countdown: { phase: "paused", pausedAt: 30 },
    });
    const countdowns = other.db.all<{ body: string }>(
      "SELECT body FROM entries WHERE kind = 'interaction.countdown' ORDER BY seq",
    );
    expect(countdowns.map((row) => JSON.parse(row.body).countdown.phase)).toEqual([
      "counting",
      "paused",
    ]);
    seed.close();
    other.close();
  }, 30_000);
});
