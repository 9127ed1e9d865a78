// Big plan: an ~80 KB markdown plan (bench/fixtures/big-plan.md) arrives in a plan-review card.
// Times run from the frame reaching the page's socket to (a) the card's first frame painted
// and (b) the plan's last line in the DOM and painted; long tasks (PerformanceObserver
// `longtask`) are collected while it renders and while the plan is scrolled to its end.
// Every run sends a plan the page has not seen (each heading names the run), so no section
// comes from the renderer's cache: the figures are a first view, not a revision.
import type { Page } from "playwright-core";
import type { Figure } from "./figures.ts";
import { median, percentile } from "./figures.ts";
import { BIG_PLAN_END, loadBigPlan } from "./fixtures/bigPlan.ts";
import { planReviewQuestion } from "./fixtures/questions.ts";
import { BenchServer } from "./lib/benchServer.ts";
import { launchChromium } from "./lib/browser.ts";
import { buildPage } from "./lib/build.ts";
import type { CardRecord, FrameRecord, LongTaskRecord } from "./lib/pageProbe.ts";
import { openSessionPage, sleep } from "./lib/session.ts";

const RUNS = Number(process.env.BENCH_PLAN_RUNS ?? 12);
const PLAN_BODY = ".qreview-body";

interface PlanRun {
  firstScreen: number;
  whole: number;
  toDom: number;
  longestRender: number;
  longestScroll: number;
  longTasks: number;
}

const freshPlan = (plan: string, run: number) => plan.replace(/^(#{1,6} .*)$/gm, `$1 (run ${run})`);

/** Wheels through the plan body to its end, one notch per display frame. */
async function scrollToEnd(page: Page): Promise<void> {
  const box = await page.locator(PLAN_BODY).boundingBox();
  if (!box) throw new Error("the plan body is not on screen");
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  for (let step = 0; step < 400; step++) {
    await page.mouse.wheel(0, 600);
    const atEnd = await page.$eval(
      PLAN_BODY,
      (el) => el.scrollTop + el.clientHeight >= el.scrollHeight - 2,
    );
    if (atEnd) return;
  }
}

const longestIn = (tasks: LongTaskRecord[], from: number, to: number) =>
  tasks
    .filter((t) => t.start + t.duration >= from && t.start <= to)
    .reduce((max, t) => Math.max(max, t.duration), 0);

export async function run(): Promise<Figure[]> {
  const plan = loadBigPlan();
  const { outDir } = await buildPage();
  const server = new BenchServer({ distDir: outDir });
  const browser = await launchChromium();
  try {
    await server.start();
    const sessionId = await server.createSession("big plan");
    const { page, events } = await openSessionPage(browser, server, sessionId, {
      endMarker: BIG_PLAN_END,
    });
    const runs: PlanRun[] = [];
    for (let i = 0; i <= RUNS; i++) {
      const tag = `plan ${i}`;
      const complete = events.next((e) => e.type === "complete", 20_000, `${tag} complete`);
      const { interactionId } = await server.ask(
        sessionId,
        planReviewQuestion(tag, freshPlan(plan, i)),
        "ExitPlanMode",
      );
      const { index } = await complete;
      await page.waitForFunction((i) => window.__bench.cards[i]?.afterPaint !== undefined, index);
      const scrollStart = await page.evaluate(() => performance.timeOrigin + performance.now());
      await scrollToEnd(page);
      // Long tasks are reported after they end; give the last one a moment.
      await sleep(200);
      const scrollEnd = await page.evaluate(() => performance.timeOrigin + performance.now());
      const { card, frame, tasks } = await page.evaluate(
        ({ index, interactionId }) => ({
          card: window.__bench.cards[index] as CardRecord,
          frame: window.__bench.frames.find(
            (f) => f.kind === "interaction.requested" && f.interactionId === interactionId,
          ) as FrameRecord | undefined,
          tasks: window.__bench.longTasks,
        }),
        { index, interactionId },
      );
      if (!frame || card.painted === undefined || card.completePainted === undefined) {
        throw new Error(`incomplete records for ${tag}`);
      }
      runs.push({
        firstScreen: card.painted - frame.arrival,
        whole: card.completePainted - frame.arrival,
        toDom: card.appeared - frame.arrival,
        longestRender: longestIn(tasks, frame.arrival - 5, card.completePainted),
        longestScroll: longestIn(tasks, scrollStart, scrollEnd),
        longTasks: tasks.filter((t) => t.start >= frame.arrival - 5 && t.start <= scrollEnd).length,
      });
      await server.answerHead(sessionId);
      await sleep(300);
    }
    const [cold, ...warm] = runs;
    if (!cold) throw new Error("no runs");
    const pick = (key: keyof PlanRun) => warm.map((r) => r[key]);
    const note = `n=${warm.length} warm; first run ${cold.firstScreen.toFixed(0)} / ${cold.whole.toFixed(0)} ms`;
    const longest = Math.max(...runs.map((r) => Math.max(r.longestRender, r.longestScroll)));
    return [
      {
        name: "big plan: frame → first screen painted",
        unit: "ms",
        median: median(pick("firstScreen")),
        p95: percentile(pick("firstScreen"), 95),
        goal: 100,
        goalKind: "max",
        judged: "median",
        note,
      },
      {
        name: "big plan: frame → whole plan rendered",
        unit: "ms",
        median: median(pick("whole")),
        p95: percentile(pick("whole"), 95),
        goal: 250,
        goalKind: "max",
        judged: "median",
        note,
      },
      {
        name: "big plan: longest main-thread task",
        unit: "ms",
        value: longest,
        goal: 50,
        goalKind: "max",
        note: `all ${runs.length} runs, render + scroll; per-run render p50 ${median(pick("longestRender")).toFixed(0)} ms, scroll p50 ${median(pick("longestScroll")).toFixed(0)} ms`,
      },
      {
        name: "  big plan: frame → card in DOM (JS)",
        unit: "ms",
        median: median(pick("toDom")),
        p95: percentile(pick("toDom"), 95),
        goalKind: "max",
        note: "parse + React render + commit",
      },
      {
        name: "  big plan: long tasks per run",
        unit: "",
        median: median(pick("longTasks")),
        goalKind: "max",
      },
    ];
  } finally {
    await browser.close();
    await server.stop();
  }
}
