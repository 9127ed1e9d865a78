import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { PROTOCOL_VERSION, type StoredEntry } from "../protocol/index.ts";
import { CliError, parseCliOptions } from "./cliOptions.ts";
import { redactUrl } from "./store/store.ts";
import { CliProcess } from "./testing/cliProcess.ts";
import { tempDir } from "./testing/helpers.ts";
import { startTestPostgres, type TestPostgres } from "./testing/testPostgres.ts";
import { TestClient } from "./testing/wsClient.ts";

const scenario = `
turns:
  - steps:
      - say: Reading.
        tools: [{ name: Read, input: { path: README.md } }]
      - say: "a slow answer that streams for a while so the kill lands mid-turn"
        delayMs: 150
`;

let postgres: TestPostgres;
beforeAll(async () => {
  postgres = await startTestPostgres();
}, 60_000);
afterAll(async () => {
  await postgres?.stop();
});

describe("--db postgres://", () => {
  it("[S1] takes a PostgreSQL URL as it is and refuses other URLs", () => {
    const url = "postgres://me:secret@db.internal:5432/plangate";
    expect(parseCliOptions(["--db", url], "/repo").dbPath).toBe(url);
    expect(parseCliOptions(["--db", "postgresql://h/db"], "/repo").dbPath).toBe(
      "postgresql://h/db",
    );
    expect(() => parseCliOptions(["--db", "mysql://me:secret@h/db"], "/repo")).toThrow(CliError);
    expect(() => parseCliOptions(["--db", "mysql://me:secret@h/db"], "/repo")).not.toThrow(
      /secret/,
    );
  });

  describe("the CLI process on PostgreSQL", () => {
    let dir: ReturnType<typeof tempDir>;
    const running: CliProcess[] = [];
    const clients: TestClient[] = [];

    beforeEach(() => {
      dir = tempDir();
      writeFileSync(join(dir.path, "README.md"), "# postgres test\n");
      writeFileSync(join(dir.path, "scenario.yaml"), scenario);
    });
    afterEach(async () => {
      for (const client of clients.splice(0)) client.close();
      for (const cli of running.splice(0)) await cli.kill();
      dir.remove();
    });

    const start = async (dbUrl: string) => {
      const cli = CliProcess.spawn(
        ["--port", "0", "--workspace", dir.path, "--db", dbUrl, "--token", "secret-token"].concat([
          "--model",
          `scripted:${join(dir.path, "scenario.yaml")}`,
          "--no-build",
        ]),
      );
      running.push(cli);
      const url = await cli.url();
      const client = await TestClient.open(`ws://${url.host}/ws?token=secret-token`);
      clients.push(client);
      client.send({ type: "hello", protocol: PROTOCOL_VERSION });
      await client.next("welcome");
      return { cli, client };
    };

    it("[S1][R6] serves sessions from PostgreSQL and keeps every entry a client was sent across kill -9", async () => {
      const dbUrl = await postgres.newDatabase();
      const first = await start(dbUrl);
      expect(first.cli.output).toContain("sessions are kept in PostgreSQL");
      first.client.send({ type: "session.create", title: "durable" });
      const { session } = await first.client.next("snapshot");
      first.client.send({ type: "prompt", sessionId: session.id, text: "look around" });
      await first.client.next("assistant.delta", (f) => f.text.includes("slow"));
      const seen: StoredEntry[] = first.client
        .events(session.id)
        .map(({ seq, at, entry }) => ({ seq, at, entry }));
      expect(seen.map((e) => e.entry.kind)).toContain("tool.result");
      await first.cli.kill("SIGKILL");

      // The entries are PostgreSQL's rows, and no SQLite file was made on the side.
      const client = new pg.Client({ connectionString: dbUrl });
      await client.connect();
      const rows = await client.query("SELECT seq FROM entries WHERE session_id = $1", [
        session.id,
      ]);
      await client.end();
      expect(rows.rowCount).toBeGreaterThanOrEqual(seen.length);
      expect(existsSync(join(dir.path, ".zcode", "plangate.db"))).toBe(false);

      const second = await start(dbUrl);
      second.client.send({ type: "session.open", sessionId: session.id });
      const snapshot = await second.client.next("snapshot");
      for (const entry of seen) {
        expect(snapshot.entries.find((stored) => stored.seq === entry.seq)).toEqual(entry);
      }
      const ended =
        snapshot.entries.find((e) => e.entry.kind === "turn.ended") ??
        (await second.client.next("event", (f) => f.entry.kind === "turn.ended"));
      expect(ended.entry).toEqual({ kind: "turn.ended", reason: "completed" });
    }, 60_000);

    it("[S2] a server or token command on SQLite in a workspace PostgreSQL servers share refuses, naming the database", async () => {
      const dbUrl = await postgres.newDatabase();
      const shared = await start(dbUrl);
      const marker = join(dir.path, ".zcode", "shared-database");
      expect(readFileSync(marker, "utf8").trim()).toBe(redactUrl(dbUrl));

      const onSqlite = CliProcess.spawn(["--port", "0", "--workspace", dir.path, "--no-build"]);
      running.push(onSqlite);
      await expect(onSqlite.url()).rejects.toThrow(/exited with 1 before printing a URL/);
      const tokens = CliProcess.spawn(["token", "issue", "alice", "--workspace", dir.path]);
      running.push(tokens);
      expect(await tokens.exited()).toBe(1);
      for (const output of [onSqlite.output, tokens.output]) {
        expect(output).toContain(`kept in PostgreSQL at ${redactUrl(dbUrl)}`);
        expect(output).toContain("--db");
        expect(output).toContain(`delete ${marker}`);
      }
      expect(existsSync(join(dir.path, ".zcode", "plangate.db"))).toBe(false);

      // Once the workspace no longer uses PostgreSQL, the marker goes and SQLite serves it.
      await shared.cli.kill();
      rmSync(marker);
      const alone = CliProcess.spawn(["--port", "0", "--workspace", dir.path, "--no-build"]);
      running.push(alone);
      await alone.url();
      expect(existsSync(join(dir.path, ".zcode", "plangate.db"))).toBe(true);
    }, 60_000);

    it("[S1] stops with a clear error when PostgreSQL cannot be reached", async () => {
      const cli = CliProcess.spawn(
        ["--port", "0", "--workspace", dir.path, "--no-build"].concat([
          "--db",
          "postgres://plangate:hunter2@127.0.0.1:1/nowhere",
        ]),
      );
      running.push(cli);
      expect(await cli.exited()).not.toBe(0);
      expect(cli.output).toMatch(/ECONNREFUSED|connect/);
      expect(cli.output).not.toContain("hunter2");
    }, 60_000);
  });
});
