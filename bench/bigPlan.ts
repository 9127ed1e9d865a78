// Big plan: an ~80 KB markdown plan (bench/fixtures/big-plan.md) arrives in a plan-review card.
// Times run from the frame reaching the page's socket to (a) the card's first frame painted
// and (b) the plan's last line in the DOM and painted; every main-thread task is taken from a
// Chromium trace (not `longtask`, which sees only tasks over 50 ms) while it renders and while
// the plan is scrolled to its end. Besides the big plan (a heading every 1–2 KB, the renderer's
// best case): one long list, one long code block and a 2,000-row table (fixtures/planShapes.ts).
// Every run sends a plan the page has not seen (each heading names the run), so no section
// comes from the renderer's cache: the figures are a first view, not a revision.
import type { Browser, Page } from "playwright-core";
import type { Figure } from "./figures.ts";
import { median, percentile } from "./figures.ts";
import { BIG_PLAN_END, loadBigPlan } from "./fixtures/bigPlan.ts";
import { planShapes } from "./fixtures/planShapes.ts";
import { planReviewQuestion } from "./fixtures/questions.ts";
import { BenchServer } from "./lib/benchServer.ts";
import { launchChromium } from "./lib/browser.ts";
import { buildPage } from "./lib/build.ts";
import type { CardRecord, FrameRecord } from "./lib/pageProbe.ts";
import { openSessionPage, sleep } from "./lib/session.ts";
import { longestTask, mainThreadTasks } from "./lib/trace.ts";

const RUNS = Number(process.env.BENCH_PLAN_RUNS ?? 12);
const SHAPE_RUNS = Number(process.env.BENCH_SHAPE_RUNS ?? 6);
/** `BENCH_PLAN_SHAPES=list,table` measures only the shapes whose names hold one of the words. */
const ONLY = process.env.BENCH_PLAN_SHAPES?.split(",");
const PLAN_BODY = ".qreview-body";

interface PlanRun {
  firstScreen: number;
  whole: number;
  toDom: number;
  longestRender: number;
  longestScroll: number;
  /** The agent withdraws the plan: its card leaves the page (ComposerArea takes it down in steps). */
  longestDismiss: number;
  /** Withdrawn → the card's last node gone from the page. */
  dismissed: number;
  /** The longest task's thread (CPU) time, render + scroll + dismiss: what it cost without the wait for a core. */
  longestCpu: number;
  /** Main-thread thread time from the frame to the whole plan painted (tasks inside it). */
  renderCpu: number;
  longTasks: number;
}

const freshPlan = (plan: string, run: number) => plan.replace(/^(#{1,6} .*)$/gm, `$1 (run ${run})`);

/**
 * Wheels through the plan body to its end, one notch per display frame. The page is read with
 * `page.evaluate` and `document.querySelector`, not a locator or `$eval`: Playwright's selector
 * engine walks the whole DOM (for shadow roots), tens of ms on a 2,000-row table, and that ran
 * on the page's main thread as a task of the scroll window.
 */
export async function scrollToEnd(page: Page): Promise<void> {
  const box = await page.evaluate((selector) => {
    const rect = document.querySelector(selector)?.getBoundingClientRect();
    return rect ? { x: rect.x, y: rect.y, width: rect.width, height: rect.height } : null;
  }, PLAN_BODY);
  if (!box) throw new Error("the plan body is not on screen");
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  for (let step = 0; step < 400; step++) {
    await page.mouse.wheel(0, 600);
    const atEnd = await page.evaluate((selector) => {
      const el = document.querySelector(selector);
      return el === null || el.scrollTop + el.clientHeight >= el.scrollHeight - 2;
    }, PLAN_BODY);
    if (atEnd) return;
  }
}

/** One plan shape's runs in one page, traced, so every task length is known (not only > 50 ms). */
async function measureShape(
  browser: Browser,
  server: BenchServer,
  sessionId: string,
  page: Page,
  events: Awaited<ReturnType<typeof openSessionPage>>["events"],
  shape: Shape,
): Promise<PlanRun[]> {
  await browser.startTracing(page, { categories: ["toplevel", "blink.user_timing"] });
  // Pairs the page's clock with the trace's: the mark's trace time is this page time.
  const pageClock = await page.evaluate(() => {
    performance.mark("bench:clock");
    return performance.timeOrigin + performance.now();
  });
  const windows: {
    render: [number, number];
    scroll: [number, number];
    dismiss: [number, number];
  }[] = [];
  const runs: Omit<
    PlanRun,
    "longestRender" | "longestScroll" | "longestDismiss" | "longestCpu" | "renderCpu" | "longTasks"
  >[] = [];
  for (let i = 0; i <= shape.runs; i++) {
    const tag = `${shape.name} ${i}`;
    const complete = events.next((e) => e.type === "complete", 60_000, `${tag} complete`);
    const { interactionId } = await server.ask(
      sessionId,
      planReviewQuestion(tag, shape.make(i)),
      "ExitPlanMode",
    );
    const { index } = await complete;
    await page.waitForFunction((i) => window.__bench.cards[i]?.afterPaint !== undefined, index);
    const scrollStart = await page.evaluate(() => performance.timeOrigin + performance.now());
    await scrollToEnd(page);
    const scrollEnd = await page.evaluate(() => performance.timeOrigin + performance.now());
    const { card, frame } = await page.evaluate(
      ({ index, interactionId }) => ({
        card: window.__bench.cards[index] as CardRecord,
        frame: window.__bench.frames.find(
          (f) => f.kind === "interaction.requested" && f.interactionId === interactionId,
        ) as FrameRecord | undefined,
      }),
      { index, interactionId },
    );
    if (!frame || card.painted === undefined || card.completePainted === undefined) {
      throw new Error(`incomplete records for ${tag}`);
    }
    const dismissStart = await page.evaluate(() => performance.timeOrigin + performance.now());
    await server.abortHead(sessionId);
    // Polled in frames from the page, not with a locator (see scrollToEnd).
    const dismissEnd = await page.evaluate(
      (selector) =>
        new Promise<number>((resolve) => {
          const check = () => {
            if (document.querySelector(selector) === null) {
              resolve(performance.timeOrigin + performance.now());
            } else requestAnimationFrame(check);
          };
          requestAnimationFrame(check);
        }),
      PLAN_BODY,
    );
    runs.push({
      firstScreen: card.painted - frame.arrival,
      whole: card.completePainted - frame.arrival,
      toDom: card.appeared - frame.arrival,
      dismissed: dismissEnd - dismissStart,
    });
    windows.push({
      render: [frame.arrival - 5, card.completePainted],
      scroll: [scrollStart, scrollEnd],
      dismiss: [dismissStart, dismissEnd],
    });
    await sleep(300);
  }
  const { tasks, marks } = mainThreadTasks((await browser.stopTracing()).toString());
  const clockUs = marks.get("bench:clock");
  if (clockUs === undefined) throw new Error("the trace holds no clock mark");
  const us = (pageMs: number) => clockUs + (pageMs - pageClock) * 1000;
  return runs.map((run, i) => {
    const { render, scroll, dismiss } = windows[i]!;
    const inRun = tasks.filter((t) => t.ts + t.dur >= us(render[0]) && t.ts <= us(dismiss[1]));
    return {
      ...run,
      longestRender: longestTask(tasks, us(render[0]), us(render[1])),
      longestScroll: longestTask(tasks, us(scroll[0]), us(scroll[1])),
      longestDismiss: longestTask(tasks, us(dismiss[0]), us(dismiss[1])),
      longestCpu: Math.max(
        longestTask(tasks, us(render[0]), us(scroll[1]), "cpu"),
        longestTask(tasks, us(dismiss[0]), us(dismiss[1]), "cpu"),
      ),
      renderCpu:
        tasks
          .filter((t) => t.ts >= us(render[0]) && t.ts + t.dur <= us(render[1]))
          .reduce((sum, t) => sum + t.cpu, 0) / 1000,
      longTasks: inRun.filter((t) => t.dur > 50_000).length,
    };
  });
}

interface Shape {
  name: string;
  runs: number;
  make: (run: number) => string;
}

function figuresOf(shape: Shape, runs: PlanRun[]): Figure[] {
  const [cold, ...warm] = runs;
  if (!cold) throw new Error("no runs");
  const pick = (key: keyof PlanRun) => warm.map((r) => r[key]);
  const note = `n=${warm.length} warm; first run ${cold.firstScreen.toFixed(0)} / ${cold.whole.toFixed(0)} ms`;
  const longest = Math.max(
    ...runs.map((r) => Math.max(r.longestRender, r.longestScroll, r.longestDismiss)),
  );
  const label = `big plan (${shape.name})`;
  return [
    {
      name: `${label}: frame → first screen painted`,
      unit: "ms",
      median: median(pick("firstScreen")),
      p95: percentile(pick("firstScreen"), 95),
      goal: 50,
      goalKind: "max",
      judged: "median",
      note,
    },
    {
      name: `${label}: frame → whole plan rendered`,
      unit: "ms",
      median: median(pick("whole")),
      p95: percentile(pick("whole"), 95),
      goal: 250,
      goalKind: "max",
      judged: "median",
      note: `${note}; main-thread thread time meanwhile p50 ${median(pick("renderCpu")).toFixed(0)} ms`,
    },
    {
      name: `${label}: longest main-thread task`,
      unit: "ms",
      value: longest,
      goal: 50,
      goalKind: "max",
      note: `from the trace, all ${runs.length} runs, render + scroll + dismiss; per-run render p50 ${median(pick("longestRender")).toFixed(1)} ms, scroll p50 ${median(pick("longestScroll")).toFixed(1)} ms, dismiss p50 ${median(pick("longestDismiss")).toFixed(1)} ms`,
    },
    {
      name: `  ${label}: longest task, thread time`,
      unit: "ms",
      median: median(pick("longestCpu")),
      goalKind: "max",
      note: `per run, render + scroll + dismiss: the CPU the task took (a loaded machine adds waits for a core to the wall time); all runs max ${Math.max(...runs.map((r) => r.longestCpu)).toFixed(1)} ms`,
    },
    {
      name: `  ${label}: withdrawn → card gone from the page`,
      unit: "ms",
      median: median(pick("dismissed")),
      goalKind: "max",
      note: "the agent withdraws the plan; a long plan's card leaves hidden, in steps",
    },
    {
      name: `  ${label}: frame → card in DOM (JS)`,
      unit: "ms",
      median: median(pick("toDom")),
      p95: percentile(pick("toDom"), 95),
      goalKind: "max",
      note: "parse + render + commit",
    },
    {
      name: `  ${label}: tasks over 50 ms per run`,
      unit: "",
      median: median(pick("longTasks")),
      goalKind: "max",
    },
  ];
}

export async function run(): Promise<Figure[]> {
  const plan = loadBigPlan();
  const shapes: Shape[] = [
    { name: "80 KB, headings", runs: RUNS, make: (i: number) => freshPlan(plan, i) },
    ...Object.entries(planShapes).map(([name, make]) => ({ name, runs: SHAPE_RUNS, make })),
  ].filter((shape) => !ONLY || ONLY.some((word) => shape.name.includes(word)));
  const { outDir } = await buildPage();
  const server = new BenchServer({ distDir: outDir });
  const browser = await launchChromium();
  try {
    await server.start();
    const figures: Figure[] = [];
    for (const shape of shapes) {
      // A page per shape: a shape's first run is a first view in a fresh page.
      const sessionId = await server.createSession(`big plan: ${shape.name}`);
      const { page, events } = await openSessionPage(browser, server, sessionId, {
        endMarker: BIG_PLAN_END,
      });
      const runs = await measureShape(browser, server, sessionId, page, events, shape);
      figures.push(...figuresOf(shape, runs));
      await page.close();
    }
    return figures;
  } finally {
    await browser.close();
    await server.stop();
  }
}
