// `npm run bench [-- names…] [--record]`: runs the benchmarks in sequence, prints one table
// and, with --record, adds the run to bench/RESULTS.md. Never part of `npm test`.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { join } from "node:path";
import { type Figure, markdownTable, passes, textTable } from "./figures.ts";

type Bench = () => Promise<Figure[]>;

const benches: Record<string, () => Promise<{ run: Bench }>> = {
  questionToPixels: () => import("./questionToPixels.ts"),
  bigPlan: () => import("./bigPlan.ts"),
  bundle: () => import("./bundle.ts"),
  manyQuestions: () => import("./manyQuestions.ts"),
  fanout: () => import("./fanout.ts"),
  coldStart: () => import("./coldStart.ts"),
  longSessionTurn: () => import("./longSessionTurn.ts"),
  inbox: () => import("./inbox.ts"),
  planSelection: () => import("./planSelection.ts"),
  pgStore: () => import("./pgStore.ts"),
  multiServer: () => import("./multiServer.ts"),
  mcpBurst: () => import("./mcpBurst.ts"),
  commitStalls: () => import("./commitStalls.ts"),
};

/** A benchmark that hangs must not hold the others; each one also stops its own children. */
const BENCH_TIMEOUT_MS = 10 * 60_000;

function withTimeout<T>(promise: Promise<T>, ms: number, name: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${name} took longer than ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function gitCommit(root: string): string {
  try {
    const sha = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root })
      .toString()
      .trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--", "src", "locales"], {
      cwd: root,
    })
      .toString()
      .trim();
    return dirty ? `${sha} + uncommitted changes in src/` : sha;
  } catch {
    return "unknown";
  }
}

function machine(): string {
  const list = cpus();
  const model = list[0]?.model.trim() ?? "unknown CPU";
  const memory = `${Math.round(totalmem() / 2 ** 30)} GiB`;
  const load = loadavg()
    .map((value) => value.toFixed(1))
    .join(" / ");
  return `${list.length} cores (${model}), ${memory}, Node ${process.versions.node}, ${process.platform}, load ${load}`;
}

function record(root: string, figures: Figure[], failures: string[], names: string[]): void {
  const file = join(root, "bench", "RESULTS.md");
  const heading = "# Benchmark results\n";
  const intro =
    "Recorded by `npm run bench -- --record` (see `bench/README.md`); newest run first. " +
    "Each run names the commit, the date and the core count (`os.cpus().length`).\n";
  const previous = existsSync(file) ? readFileSync(file, "utf8") : "";
  const older = previous.includes("\n## ") ? previous.slice(previous.indexOf("\n## ") + 1) : "";
  const run = [
    `## ${new Date().toISOString()} — ${cpus().length} cores`,
    "",
    `- commit: ${gitCommit(root)}`,
    `- machine: ${machine()}`,
    `- benchmarks: ${names.join(", ")}`,
    "",
    markdownTable(figures),
    "",
    ...(failures.length > 0 ? ["Failures:", "", ...failures.map((f) => `- ${f}`), ""] : []),
  ].join("\n");
  writeFileSync(file, `${heading}\n${intro}\n${run}\n${older}`);
  console.log(`\nrecorded in ${file}`);
}

/**
 * `--quiet=L`: before each benchmark, wait (up to 10 min) until the 1-minute load average is
 * below L, since other work on a shared machine moves browser and timer figures a lot.
 */
async function waitForQuiet(limit: number): Promise<void> {
  const until = Date.now() + 10 * 60_000;
  while ((loadavg()[0] ?? 0) >= limit && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 5_000));
  }
}

async function main(): Promise<void> {
  const root = join(import.meta.dirname, "..");
  const args = process.argv.slice(2);
  const shouldRecord = args.includes("--record");
  const quiet = Number(args.find((arg) => arg.startsWith("--quiet="))?.slice(8) ?? Number.NaN);
  const asked = args.filter((arg) => !arg.startsWith("--"));
  const unknown = asked.filter((name) => !(name in benches));
  if (unknown.length > 0) {
    console.error(`unknown benchmark(s): ${unknown.join(", ")}`);
    console.error(`known: ${Object.keys(benches).join(", ")}`);
    process.exitCode = 2;
    return;
  }
  const names = asked.length > 0 ? asked : Object.keys(benches);
  const figures: Figure[] = [];
  const failures: string[] = [];
  console.log(`plangate benchmarks on ${machine()}\n`);
  for (const name of names) {
    if (!Number.isNaN(quiet)) await waitForQuiet(quiet);
    const started = performance.now();
    console.log(`▶ ${name} (load ${loadavg()[0]?.toFixed(1)})`);
    try {
      const { run } = await benches[name]!();
      const produced = await withTimeout(run(), BENCH_TIMEOUT_MS, name);
      figures.push(...produced);
      console.log(textTable(produced));
    } catch (error) {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      failures.push(`${name}: ${message.split("\n")[0]}`);
      console.error(`✗ ${name} failed: ${message}`);
    }
    console.log(`  (${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
  }
  console.log("\n=== plangate benchmarks ===\n");
  console.log(textTable(figures));
  for (const failure of failures) console.log(`✗ ${failure}`);
  const missed = figures.filter((figure) => passes(figure) === false).length;
  console.log(
    `\n${figures.filter((f) => passes(f) === true).length} goals met, ${missed} missed, ${failures.length} benchmark(s) failed`,
  );
  if (shouldRecord) record(root, figures, failures, names);
  // Chromium or a child server that failed to stop must not keep the run alive.
  process.exit(failures.length > 0 ? 1 : 0);
}

await main();
