import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import type { SessionEntry } from "../../protocol/index.ts";
import { FakeClock } from "../interactions/fakeClock.ts";
import { startTestPostgres, type TestPostgres } from "../testing/testPostgres.ts";
import { openStore } from "./store.ts";

const run = promisify(execFile);
const root = resolve(import.meta.dirname, "../../..");
const ROUNDS = 50;

let postgres: TestPostgres;
beforeAll(async () => {
  postgres = await startTestPostgres();
}, 60_000);
afterAll(async () => {
  await postgres?.stop();
});

function question(interactionId: string): SessionEntry {
  return {
    kind: "interaction.requested",
    request: {
      kind: "question",
      interactionId,
      sessionId: "s1",
      toolName: "AskUserQuestion",
      toolCallId: `call_${interactionId}`,
      questions: [
        {
          question: "Which?",
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

describe("exactly once across processes on one PostgreSQL", () => {
  it("[S1][S2] 50 rounds of two processes resolving the same question at once give one resolution each", async () => {
    const url = await postgres.newDatabase();
    const store = openStore(url, new FakeClock());
    store.log.createSession({
      id: "s1",
      title: "race",
      model: "scripted:demo",
      mode: { permissionMode: "build", planEnabled: false },
    });
    for (let round = 0; round < ROUNDS; round++) store.log.append("s1", question(`q${round}`));

    // Both start resolving at the same wall-clock moments, 40 ms apart, after both have loaded.
    const startAt = Date.now() + 8_000;
    const racer = (name: string) =>
      run(
        process.execPath,
        ["--import", "tsx", "src/server/testing/resolveRacer.ts", url].concat([
          String(startAt),
          String(ROUNDS),
          "40",
          name,
        ]),
        { cwd: root },
      ).then(({ stdout }) => JSON.parse(stdout) as { outcomes: ("won" | "lost")[] });
    const [a, b] = await Promise.all([racer("a"), racer("b")]);

    for (let round = 0; round < ROUNDS; round++) {
      expect([a.outcomes[round], b.outcomes[round]].sort()).toEqual(["lost", "won"]);
    }
    const resolutions = store.log
      .entriesAfter("s1", 0)
      .filter((stored) => stored.entry.kind === "interaction.resolved");
    expect(resolutions).toHaveLength(ROUNDS);
    expect(
      new Set(
        resolutions.map(
          (stored) => stored.entry.kind === "interaction.resolved" && stored.entry.interactionId,
        ),
      ).size,
    ).toBe(ROUNDS);
    store.close();
  }, 60_000);
});
