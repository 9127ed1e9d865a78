// `npx tsx bench/profile.ts <target>`: profiles what a benchmark measures, on an unminified
// build with source maps, and prints where the time goes (self time by package and function,
// main-thread time by trace event). Profiles are kept in .cache/bench-profiles/ for DevTools.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, CDPSession, Page } from "playwright-core";
import { scrollToEnd } from "./bigPlan.ts";
import { startOnce } from "./coldStart.ts";
import { BIG_PLAN_END, loadBigPlan } from "./fixtures/bigPlan.ts";
import { seedLongSession } from "./fixtures/longSession.ts";
import { planShapes } from "./fixtures/planShapes.ts";
import { genericQuestion, planReviewQuestion, SMALL_PLAN } from "./fixtures/questions.ts";
import { BenchServer } from "./lib/benchServer.ts";
import { launchChromium } from "./lib/browser.ts";
import { buildPage, repoRoot } from "./lib/build.ts";
import { makeBuiltTree } from "./lib/builtTree.ts";
import {
  type CpuProfile,
  formatSummary,
  sourceMapResolver,
  summariseProfile,
} from "./lib/cpuProfile.ts";
import { ProbeEvents, probePage } from "./lib/pageProbe.ts";
import { CARD_SELECTOR, openSessionPage, sleep } from "./lib/session.ts";
import { formatTrace, mainThreadTasks, summariseTrace } from "./lib/trace.ts";
import { runWorker } from "./manyQuestions.ts";
import { connectAgent, mcpCallOf, openAgentSession } from "./questionToPixels.ts";

const outDir = join(repoRoot, ".cache", "bench-profiles");

interface Capture {
  stop(): Promise<{ profile: CpuProfile; trace: string }>;
}

async function capture(context: BrowserContext, page: Page): Promise<Capture> {
  const cdp: CDPSession = await context.newCDPSession(page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
  const browser = context.browser();
  if (!browser) throw new Error("no browser");
  await browser.startTracing(page, {
    categories: [
      "devtools.timeline",
      "disabled-by-default-devtools.timeline",
      "v8.execute",
      "blink.user_timing",
    ],
  });
  await cdp.send("Profiler.start");
  return {
    async stop() {
      const { profile } = (await cdp.send("Profiler.stop")) as unknown as { profile: CpuProfile };
      const trace = (await browser.stopTracing()).toString();
      await cdp.detach();
      return { profile, trace };
    },
  };
}

function report(name: string, dist: string, result: { profile: CpuProfile; trace: string }) {
  mkdirSync(outDir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  writeFileSync(join(outDir, `${name}-${stamp}.cpuprofile`), JSON.stringify(result.profile));
  writeFileSync(join(outDir, `${name}-${stamp}.trace.json`), result.trace);
  console.log(formatTrace(`${name}: trace`, summariseTrace(result.trace)));
  // What the longest tasks are made of: a task over 50 ms is the figure the goals judge.
  const { tasks } = mainThreadTasks(result.trace);
  const longest = [...tasks].sort((a, b) => b.dur - a.dur).slice(0, 5);
  for (const task of longest) {
    const window = { fromUs: task.ts, toUs: task.ts + task.dur };
    console.log();
    console.log(
      formatTrace(
        `task of ${(task.dur / 1000).toFixed(1)} ms`,
        summariseTrace(result.trace, window),
        8,
      ),
    );
    // The profile's clock is the trace's (both are Chromium's monotonic clock, in µs).
    const js = summariseProfile(result.profile, sourceMapResolver(dist), window);
    for (const fn of js.byFunction.slice(0, 8)) {
      console.log(`  ${fn.ms.toFixed(1).padStart(8)} ms  js ${fn.name}  (${fn.where || fn.group})`);
    }
  }
  console.log();
  console.log(
    formatSummary(
      `${name}: page JS`,
      summariseProfile(result.profile, sourceMapResolver(dist)),
      25,
    ),
  );
  console.log(`\nsaved in ${outDir}`);
}

/** Summarises every .cpuprofile node wrote into `dir` (one per process). */
function reportNodeProfiles(name: string, dir: string): void {
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"))) {
    const profile = JSON.parse(readFileSync(join(dir, file), "utf8")) as CpuProfile;
    console.log(formatSummary(`${name}: ${file}`, summariseProfile(profile), 25));
    console.log();
  }
  console.log(`profiles in ${dir}`);
}

const targets: Record<string, () => Promise<void>> = {
  /** The many-questions worker: queueing 10,000 questions and firing their deadlines. */
  async manyQuestions() {
    const dir = mkdtempSync(join(tmpdir(), "plangate-prof-many-"));
    await runWorker(["--cpu-prof", `--cpu-prof-dir=${dir}`]);
    reportNodeProfiles("manyQuestions", dir);
  },

  /** The server while 100 clients follow 2,000 drafts (the fan-out half of fanout.ts). */
  async fanout() {
    const dir = mkdtempSync(join(tmpdir(), "plangate-prof-fanout-"));
    process.env.BENCH_SKIP_RECONNECT = "1";
    process.env.BENCH_SERVER_NODE_ARGS = `--cpu-prof --cpu-prof-dir=${dir}`;
    const { run } = await import("./fanout.ts");
    console.log(await run());
    reportNodeProfiles("fanout server", dir);
  },

  /**
   * A bounded burst of MCP calls (mcpBurst.ts; set BENCH_MCP_CALLS small): the server's profile
   * and the senders' (this process: the agents' fetches), to tell which side holds the intake.
   */
  async mcpBurst() {
    const dir = mkdtempSync(join(tmpdir(), "plangate-prof-mcp-"));
    process.env.BENCH_SERVER_NODE_ARGS = `--cpu-prof --cpu-prof-dir=${dir}`;
    const session = new Session();
    session.connect();
    const post = (method: string) =>
      new Promise<unknown>((resolve, reject) =>
        session.post(method, (error, result) => (error ? reject(error) : resolve(result))),
      );
    await post("Profiler.enable");
    await post("Profiler.start");
    const { run } = await import("./mcpBurst.ts");
    console.log(await run());
    const { profile } = (await post("Profiler.stop")) as { profile: CpuProfile };
    session.disconnect();
    writeFileSync(join(dir, "senders.cpuprofile"), JSON.stringify(profile));
    reportNodeProfiles("mcpBurst", dir);
  },

  /** One restart of what `npm start` runs (the launcher and bundle) in a built tree, until the page is served. */
  async coldStart() {
    const tree = await makeBuiltTree();
    const dir = mkdtempSync(join(tmpdir(), "plangate-prof-cold-"));
    try {
      // A restart, as the goal is judged: the first start writes the bundle's code cache.
      await startOnce(process.execPath, ["scripts/start.cjs"], tree.root);
      const start = await startOnce(
        process.execPath,
        [`--cpu-prof`, `--cpu-prof-dir=${dir}`, "scripts/start.cjs"],
        tree.root,
      );
      console.log(
        `URL after ${start.urlPrinted.toFixed(0)} ms, page after ${start.pageServed.toFixed(0)} ms\n`,
      );
      reportNodeProfiles("coldStart", dir);
    } finally {
      tree.remove();
    }
  },

  /** One big-plan card, from the ask to the plan's last line painted. */
  async bigPlan() {
    const { outDir: dist } = await buildPage({ minify: false, sourcemap: true });
    const server = new BenchServer({ distDir: dist });
    const browser = await launchChromium();
    try {
      await server.start();
      const sessionId = await server.createSession("profile big plan");
      const { context, page, events } = await openSessionPage(browser, server, sessionId, {
        endMarker: BIG_PLAN_END,
      });
      // PROFILE_SHAPE=list|code|table profiles one of bench/fixtures/planShapes.ts instead.
      const shape = process.env.PROFILE_SHAPE;
      const make = shape
        ? Object.entries(planShapes).find(([name]) => name.includes(shape))?.[1]
        : undefined;
      if (shape && !make) throw new Error(`no plan shape matches ${shape}`);
      const plan = loadBigPlan();
      const runs = Number(process.env.PROFILE_RUNS ?? 1);
      const recording = await capture(context, page);
      for (let i = 0; i < runs; i++) {
        const complete = events.next((e) => e.type === "complete", 30_000, "the plan");
        await server.ask(
          sessionId,
          planReviewQuestion(`p${i}`, make ? make(i) : plan),
          "ExitPlanMode",
        );
        await complete;
        await sleep(100);
        if (process.env.PROFILE_SCROLL) await scrollToEnd(page);
        if (i < runs - 1) {
          await server.abortHead(sessionId);
          await sleep(300);
        }
      }
      report("bigPlan", dist, await recording.stop());
    } finally {
      await browser.close();
      await server.stop();
    }
  },

  /** A page load on a 10,000-entry session with a pending question, until the card shows. */
  async reconnect() {
    const { outDir: dist } = await buildPage({ minify: false, sourcemap: true });
    let sessionId = "";
    const count = Number(process.env.PROFILE_ENTRIES ?? 10_000);
    const server = new BenchServer({
      distDir: dist,
      prepare: ({ dbPath }) => {
        ({ sessionId } = seedLongSession(dbPath, count));
      },
    });
    const browser = await launchChromium();
    try {
      await server.start();
      const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
      const page = await context.newPage();
      const events = new ProbeEvents();
      await probePage(page, { cardSelector: CARD_SELECTOR }, events.listener);
      // Warm the HTTP cache on a blank session list first, as a returning browser would have it.
      await page.goto(server.url);
      await sleep(500);
      const recording = await capture(context, page);
      const shown = events.next((e) => e.type === "card", 120_000, "the pending card");
      await page.goto(`${server.url}#/s/${encodeURIComponent(sessionId)}`);
      await shown;
      await sleep(300);
      report("reconnect", dist, await recording.stop());
    } finally {
      await browser.close();
      await server.stop();
    }
  },

  /**
   * questionToPixels' own flow: an agent's MCP calls (the tool-call entry, then its question),
   * 40 cards alternating generic flow and plan card, each cancelled by the agent.
   */
  async mcpQuestions() {
    const { outDir: dist } = await buildPage({ minify: false, sourcemap: true });
    const server = new BenchServer({ distDir: dist });
    const browser = await launchChromium();
    try {
      await server.start();
      const agent = await connectAgent(server);
      const { context, page, events } = await openAgentSession(browser, server, agent);
      await sleep(300);
      const recording = await capture(context, page);
      for (let i = 0; i < 40; i++) {
        const tag = `q${i}`;
        const shown = events.next((e) => (e.label ?? "").includes(`(${tag})`), 10_000, tag);
        const call = new AbortController();
        void agent
          .callTool(mcpCallOf(i % 2 === 0 ? "generic" : "plan", tag), undefined, {
            signal: call.signal,
            timeout: 600_000,
          })
          .catch(() => {});
        await shown;
        await sleep(100);
        call.abort();
        await sleep(60 + Math.random() * 40);
      }
      report("mcpQuestions", dist, await recording.stop());
      await agent.close();
    } finally {
      await browser.close();
      await server.stop();
    }
  },

  /** Fifty small questions, alternating generic flow and plan card. */
  async questions() {
    const { outDir: dist } = await buildPage({ minify: false, sourcemap: true });
    const server = new BenchServer({ distDir: dist });
    const browser = await launchChromium();
    try {
      await server.start();
      const sessionId = await server.createSession("profile questions");
      const { context, page, events } = await openSessionPage(browser, server, sessionId);
      const recording = await capture(context, page);
      for (let i = 0; i < 50; i++) {
        const tag = `q${i}`;
        const shown = events.next((e) => (e.label ?? "").includes(`(${tag})`), 10_000, tag);
        await server.ask(
          sessionId,
          // The plan card shows the plan, not the question: its heading carries the tag.
          i % 2 === 0
            ? genericQuestion(tag)
            : planReviewQuestion(tag, SMALL_PLAN.replace("# Plan:", `# Plan (${tag}):`)),
          i % 2 === 0 ? "AskUserQuestion" : "ExitPlanMode",
        );
        await shown;
        await server.abortHead(sessionId);
        await sleep(50);
      }
      report("questions", dist, await recording.stop());
    } finally {
      await browser.close();
      await server.stop();
    }
  },
};

const name = process.argv[2] ?? "";
const target = targets[name];
if (!target) {
  console.error(`usage: npx tsx bench/profile.ts <${Object.keys(targets).join("|")}>`);
  process.exit(2);
}
await target();
process.exit(0);
