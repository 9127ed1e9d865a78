// The store on PostgreSQL against SQLite (S1), and the cross-server announcement (S2).
// Append: one `user.message` entry through SessionLog.append (validate, one transaction, seq),
// 2,000 times per backend on one session, timed per call; PostgreSQL is a throwaway local
// cluster (src/server/testing/testPostgres.ts) reached over loopback TCP, so each call pays
// three round trips (BEGIN, the writes, COMMIT) through the store's worker thread.
// Announce: a second connection LISTENs; time from the append call to the notification's
// arrival on that connection (what a second server would see), 500 times.
import { FakeClock } from "../src/server/interactions/fakeClock.ts";
import type { EntryNotice } from "../src/server/store/postgres/entryChannel.ts";
import { listenForEntries } from "../src/server/store/postgres/entryNotifications.ts";
import { openStore, type Store } from "../src/server/store/store.ts";
import { tempDir } from "../src/server/testing/helpers.ts";
import { startTestPostgres } from "../src/server/testing/testPostgres.ts";
import { type Figure, percentile } from "./figures.ts";
import { latencyFigure } from "./lib/session.ts";

const APPENDS = Number(process.env.BENCH_PG_APPENDS ?? 2000);
const ANNOUNCES = Number(process.env.BENCH_PG_ANNOUNCES ?? 500);

function timeAppends(store: Store): number[] {
  store.log.createSession({
    id: "bench",
    title: "bench",
    model: "scripted:demo",
    mode: { permissionMode: "build", planEnabled: false },
  });
  const samples: number[] = [];
  for (let i = 0; i < APPENDS; i++) {
    const start = performance.now();
    store.log.append("bench", { kind: "user.message", text: `message ${i}` });
    samples.push(performance.now() - start);
  }
  return samples;
}

function withP99(figure: Figure, samples: number[]): Figure {
  return { ...figure, p99: percentile(samples, 99) };
}

export async function run(): Promise<Figure[]> {
  const dir = tempDir();
  const postgres = await startTestPostgres();
  try {
    const sqlite = openStore(`${dir.path}/bench.db`, new FakeClock());
    const sqliteAppends = timeAppends(sqlite);
    sqlite.close();

    const pg = openStore(postgres.url, new FakeClock());
    const pgAppends = timeAppends(pg);

    let arrived: ((notice: EntryNotice) => void) | undefined;
    const listener = await listenForEntries(postgres.url, {
      onEntry: (notice) => arrived?.(notice),
      onGap: () => {},
    });
    const announce: number[] = [];
    for (let i = 0; i < ANNOUNCES; i++) {
      const start = performance.now();
      const heard = new Promise<void>((resolve) => {
        arrived = () => resolve();
      });
      pg.log.append("bench", { kind: "assistant.message", text: `reply ${i}` });
      await heard;
      announce.push(performance.now() - start);
    }
    await listener.close();
    pg.close();

    return [
      withP99(latencyFigure("store append, SQLite (WAL, one file)", sqliteAppends), sqliteAppends),
      withP99(latencyFigure("store append, PostgreSQL (loopback)", pgAppends), pgAppends),
      withP99(
        latencyFigure("append → NOTIFY heard on another connection (S2)", announce, {
          value: 100,
          on: "p99",
        }),
        announce,
      ),
    ];
  } finally {
    await postgres.stop();
    dir.remove();
  }
}
