import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { createServer, type RunningServer } from "../http/server.ts";
import { tempDir } from "../testing/helpers.ts";
import { openDatabase } from "./database.ts";

describe("[R11] one server per database", () => {
  let dir: ReturnType<typeof tempDir>;
  let workspace: string;
  let dbPath: string;
  const running: RunningServer[] = [];
  const start = async (db = dbPath) => {
    const server = await createServer({ workspace, dbPath: db, distDir: "/nonexistent" });
    running.push(server);
    return server;
  };
  beforeEach(() => {
    dir = tempDir();
    workspace = join(realpathSync(dir.path), "ws");
    mkdirSync(workspace);
    dbPath = join(workspace, ".zcode", "plangate.db");
  });
  afterEach(async () => {
    for (const server of running.splice(0)) await server.close();
    dir.remove();
  });

  it("[R11] a second server on the same database refuses to start and names the first (pid, port)", async () => {
    const first = await start();
    let attempts = 0;
    let through = 0;
    for (let index = 0; index < 3; index++) {
      attempts++;
      const second = await start().then(
        () => true,
        (error: Error) => {
          expect(error.message).toContain(`pid ${process.pid}`);
          expect(error.message).toContain(`port ${first.port}`);
          expect(error.message).toContain(dbPath);
          return false;
        },
      );
      if (second) through++;
    }
    expect({ attempts, through }).toEqual({ attempts: 3, through: 0 });
    expect(first.sessions.create({ title: "still serving" }).id).toBeTruthy();
  });

  it("[R11] the database is free again once the first server closes", async () => {
    const first = await start();
    await first.close();
    running.splice(0);
    const again = await start();
    expect(again.port).toBeGreaterThan(0);
  });

  it("[R11] a lock left by a killed server is taken over", async () => {
    const dead = spawnSync(process.execPath, ["-e", "0"]).pid;
    mkdirSync(dirname(dbPath), { recursive: true });
    writeFileSync(`${dbPath}.lock`, JSON.stringify({ pid: dead, port: 1, nonce: "old" }));
    const server = await start();
    expect(JSON.parse(readFileSync(`${dbPath}.lock`, "utf8"))).toMatchObject({
      pid: process.pid,
      port: server.port,
    });
  });

  it("[R11] a lock left by a killed server whose process is still a zombie is taken over", async () => {
    // The inner shell exits; its parent became `sleep`, which never reaps it: a zombie.
    const holder = spawn("sh", ["-c", 'sh -c "echo \\$\\$" & exec sleep 30'], {
      stdio: ["ignore", "pipe", "ignore"],
    });
    try {
      const [line] = (await once(holder.stdout, "data")) as [Buffer];
      const zombie = Number(line.toString().trim());
      await vi.waitFor(() =>
        expect(readFileSync(`/proc/${zombie}/stat`, "utf8")).toContain(") Z "),
      );
      mkdirSync(dirname(dbPath), { recursive: true });
      writeFileSync(`${dbPath}.lock`, JSON.stringify({ pid: zombie, port: 1, nonce: "old" }));
      const server = await start();
      expect(server.port).toBeGreaterThan(0);
    } finally {
      holder.kill();
    }
  });

  it("[R11] another database in the same workspace is not held by the lock", async () => {
    await start();
    const other = await start(join(workspace, ".zcode", "other.db"));
    expect(other.port).toBeGreaterThan(0);
  });
});

describe("[R13] a database that is not plangate's is refused untouched", () => {
  let dir: ReturnType<typeof tempDir>;
  let workspace: string;
  beforeEach(() => {
    dir = tempDir();
    workspace = join(realpathSync(dir.path), "ws");
    mkdirSync(workspace);
  });
  afterEach(() => dir.remove());

  const filesBeside = (path: string) => readdirSync(dirname(path)).sort();

  it("[R13] another application's SQLite file keeps its bytes and its journal mode", async () => {
    const foreign = join(workspace, "app.sqlite");
    const other = new BetterSqlite3(foreign);
    other.exec(
      "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('mine');",
    );
    other.close();
    const before = readFileSync(foreign);
    const besideBefore = filesBeside(foreign);

    await expect(
      createServer({ workspace, dbPath: foreign, distDir: "/nonexistent" }),
    ).rejects.toThrow(/not use it \(nothing in it was changed\)/);
    expect(readFileSync(foreign).equals(before)).toBe(true);
    expect(filesBeside(foreign)).toEqual(besideBefore);
    const check = new BetterSqlite3(foreign, { readonly: true });
    expect(check.pragma("journal_mode", { simple: true })).toBe("delete");
    check.close();
  });

  it("[R13] an SQLite file with another application id, or no SQLite at all, is refused untouched", async () => {
    const stamped = join(workspace, "stamped.db");
    const other = new BetterSqlite3(stamped);
    other.pragma("application_id = 42");
    other.exec("CREATE TABLE sessions (id TEXT)");
    other.close();
    const text = join(workspace, "notes.db");
    writeFileSync(text, "these are my notes, not a database\n");
    for (const path of [stamped, text]) {
      const before = readFileSync(path);
      await expect(
        createServer({ workspace, dbPath: path, distDir: "/nonexistent" }),
      ).rejects.toThrow(/will not use it/);
      expect(readFileSync(path).equals(before)).toBe(true);
      expect(existsSync(`${path}.lock`)).toBe(false);
    }
  });

  it("[R13] plangate's own database, also one made before the id was stamped, opens as before", () => {
    const path = join(workspace, "plangate.db");
    const db = openDatabase(path);
    db.pragma("application_id = 0");
    db.close();
    const reopened = openDatabase(path);
    expect(reopened.pragma("application_id", { simple: true })).toBe(0x706c6774);
    reopened.close();
  });
});

describe("[R13] temp files of an interrupted atomic write", () => {
  it("[R13] are removed at start; fresh ones, other names and dependencies are left alone", async () => {
    const dir = tempDir();
    const workspace = join(realpathSync(dir.path), "ws");
    const hourAgo = new Date(Date.now() - 3_600_000);
    const file = (relative: string, old: boolean) => {
      const path = join(workspace, relative);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, "half a write");
      if (old) utimesSync(path, hourAgo, hourAgo);
      return path;
    };
    const abandoned = [
      file(".notes.md.0123456789ab.tmp", true),
      file("src/deep/.a.ts.abcdef012345.tmp", true),
      file(".zcode/.permissions.json.fedcba987654.tmp", true),
    ];
    const kept = [
      file(".notes.md.aaaaaaaaaaaa.tmp", false),
      file(".backup.tmp", true),
      file("notes.0123456789ab.tmp", true),
      file("node_modules/pkg/.x.js.0123456789ab.tmp", true),
    ];
    const server = await createServer({
      workspace,
      dbPath: join(workspace, ".zcode", "plangate.db"),
      distDir: "/nonexistent",
    });
    try {
      // A second after the start: the first page comes first (issue 15: restart).
      await vi.waitFor(
        () => {
          for (const path of abandoned) expect(existsSync(path), path).toBe(false);
        },
        { timeout: 5_000 },
      );
      for (const path of kept) expect(existsSync(path), path).toBe(true);
    } finally {
      await server.close();
      dir.remove();
    }
  });
});
