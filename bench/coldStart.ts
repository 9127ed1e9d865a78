// Cold start: `npm start` in a built tree (a copy of the project with a fresh dist/ and
// dist-server/) until the page, fetched with the token from the printed URL, answers 200; the
// restarts run on one workspace, as a user's restarts do, and one start on a new one. Also
// timed: the URL line appearing, the same start without npm (`node scripts/start.cjs`), and
// the server run from its TypeScript sources under tsx, as tests and e2e do.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Figure, median, percentile } from "./figures.ts";
import { makeBuiltTree } from "./lib/builtTree.ts";

const RUNS = Number(process.env.BENCH_COLD_RUNS ?? 11);

/**
 * The environment of a newcomer's machine: this one's without NODE_EXTRA_CA_CERTS, which the
 * sandbox sets to its own CA bundle. Node reads that file as it boots, before any of our code:
 * +40–45 ms for every Node process here (`node -e` 92 vs 47 ms), twice per `npm start` (npm's
 * and the server's). The restart figure is also taken with it set, and reported beside.
 */
function newcomerEnv(): NodeJS.ProcessEnv {
  const { NODE_EXTRA_CA_CERTS: _sandboxCa, ...env } = process.env;
  return env;
}

interface Start {
  urlPrinted: number;
  pageServed: number;
}

/** GET the URL with its token, follow the cookie redirect, and time the 200. */
async function fetchPage(url: string): Promise<void> {
  const first = await fetch(url, { redirect: "manual", headers: { accept: "text/html" } });
  let response = first;
  if (first.status === 302) {
    const cookie = (first.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const location = new URL(first.headers.get("location") ?? "/", url);
    response = await fetch(location, { headers: { cookie, accept: "text/html" } });
  }
  const body = await response.text();
  if (response.status !== 200 || !body.includes('id="root"')) {
    throw new Error(`the page answered ${response.status}: ${body.slice(0, 200)}`);
  }
}

/**
 * One start until the page answers, then the process group is ended. Without `workspace`, the
 * start is the first one of a new, empty workspace (removed afterwards).
 */
export function startOnce(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
  timeoutMs = 30_000,
  workspace?: string,
): Promise<Start> {
  const ownWorkspace = workspace === undefined;
  const dir = workspace ?? mkdtempSync(join(tmpdir(), "plangate-bench-cold-"));
  const started = performance.now();
  const child = spawn(
    command,
    [...args, "--port", "0", "--workspace", dir, "--model", "scripted:demo"],
    { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  const stop = () => {
    // npm runs the CLI in a child of its own: end the whole group this benchmark started.
    if (child.pid !== undefined && child.exitCode === null) {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // already gone
      }
    }
  };
  return new Promise<Start>((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`no page within ${timeoutMs / 1000} s:\n${output}`));
    }, timeoutMs);
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    let asked = false;
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const url = /^(http:\/\/127\.0\.0\.1:\d+\/\S*token=\S+)$/m.exec(output)?.[1];
      if (!url || asked) return;
      asked = true;
      const urlPrinted = performance.now() - started;
      fetchPage(url).then(
        () => {
          clearTimeout(timer);
          resolve({ urlPrinted, pageServed: performance.now() - started });
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
    child.once("exit", (code) => {
      if (!asked) {
        clearTimeout(timer);
        reject(new Error(`exited with ${code} before printing its URL:\n${output}`));
      }
    });
  }).finally(async () => {
    const exited = new Promise((done) => child.once("exit", done));
    stop();
    await Promise.race([exited, new Promise((done) => setTimeout(done, 5_000))]);
    if (ownWorkspace) rmSync(dir, { recursive: true, force: true });
  });
}

const FRESH_RUNS = Number(process.env.BENCH_FRESH_RUNS ?? 3);

export async function run(): Promise<Figure[]> {
  // First start of a fresh clone: every run in a new copy without dist/ or dist-server/.
  const fresh: Start[] = [];
  for (let i = 0; i < FRESH_RUNS; i++) {
    const clone = await makeBuiltTree({ fresh: true });
    try {
      fresh.push(
        await startOnce("npm", ["start", "--silent", "--"], clone.root, newcomerEnv(), 120_000),
      );
    } finally {
      clone.remove();
    }
  }
  const tree = await makeBuiltTree();
  // A restart starts on what the last start left: its database, token and keys.
  const workspace = mkdtempSync(join(tmpdir(), "plangate-bench-restart-"));
  try {
    const env = newcomerEnv();
    const firstStart = await startOnce("npm", ["start", "--silent", "--"], tree.root, env);
    await startOnce("npm", ["start", "--silent", "--"], tree.root, env, 30_000, workspace);
    const npm: Start[] = [];
    const npmHere: Start[] = [];
    const direct: Start[] = [];
    const sources: Start[] = [];
    const again = (command: string, args: string[], startEnv = env) =>
      startOnce(command, args, tree.root, startEnv, 30_000, workspace);
    for (let i = 0; i < RUNS; i++) {
      npm.push(await again("npm", ["start", "--silent", "--"]));
      npmHere.push(await again("npm", ["start", "--silent", "--"], process.env));
      direct.push(await again(process.execPath, ["scripts/start.cjs"]));
      sources.push(await again(process.execPath, ["--import", "tsx", "src/server/cli.ts"]));
    }
    const served = npm.map((s) => s.pageServed);
    const freshServed = fresh.map((s) => s.pageServed);
    return [
      {
        name: "first start of a fresh clone (build included): npm start → page 200",
        unit: "ms",
        median: median(freshServed),
        goal: 5000,
        goalKind: "max",
        judged: "median",
        note: `n=${FRESH_RUNS}, each in a new copy of the sources (node_modules linked) without dist/ or dist-server/; runs ${freshServed.map((ms) => ms.toFixed(0)).join(", ")} ms`,
      },
      {
        name: "restart: npm start → page 200 (built tree)",
        unit: "ms",
        median: median(served),
        p95: percentile(served, 95),
        goal: 500,
        goalKind: "max",
        judged: "median",
        note: `n=${RUNS}, each on the workspace the start before it used, without the sandbox's NODE_EXTRA_CA_CERTS; first run ${served[0]?.toFixed(0)} ms`,
      },
      {
        name: "  restart with this machine's environment (NODE_EXTRA_CA_CERTS set)",
        unit: "ms",
        median: median(npmHere.map((s) => s.pageServed)),
        goalKind: "max",
        note: `n=${RUNS}, interleaved with the runs above; Node reads the CA file as it boots, in npm and in the server`,
      },
      {
        name: "  npm start → page 200 on a new, empty workspace",
        unit: "ms",
        median: firstStart.pageServed,
        goalKind: "max",
        note: "one run: creates the database, the access token and the push keys",
      },
      {
        name: "  cold start: npm start → URL printed",
        unit: "ms",
        median: median(npm.map((s) => s.urlPrinted)),
        goalKind: "max",
      },
      {
        name: "  cold start: node scripts/start.cjs → page 200",
        unit: "ms",
        median: median(direct.map((s) => s.pageServed)),
        p95: percentile(
          direct.map((s) => s.pageServed),
          95,
        ),
        goalKind: "max",
        note: "without npm",
      },
      {
        name: "  cold start: node --import tsx cli → page 200",
        unit: "ms",
        median: median(sources.map((s) => s.pageServed)),
        goalKind: "max",
        note: "from the sources, as tests and e2e start it",
      },
    ];
  } finally {
    tree.remove();
    rmSync(workspace, { recursive: true, force: true });
  }
}
