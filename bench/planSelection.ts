// Plan selection (V1): input → next paint while commenting on the ~80 KB plan
// (bench/fixtures/big-plan.md) in its review card: picking a block with the pointer, selecting
// text inside one, opening the comment box and adding the comment. Each sample starts at the
// input event's own timestamp and ends after the frame that shows the result has painted: the
// page polls in requestAnimationFrame until the change is in the DOM, then a message posted
// from that rAF runs once the frame is painted (a "double rAF" without waiting a whole extra
// frame). Every sample uses another block, spread over the plan.
import type { Page } from "playwright-core";
import type { Figure } from "./figures.ts";
import { BIG_PLAN_END, loadBigPlan } from "./fixtures/bigPlan.ts";
import { planReviewQuestion } from "./fixtures/questions.ts";
import { BenchServer } from "./lib/benchServer.ts";
import { launchChromium } from "./lib/browser.ts";
import { buildPage } from "./lib/build.ts";
import { type CpuProfile, sourceMapResolver, summariseProfile } from "./lib/cpuProfile.ts";
import { latencyFigure, openSessionPage, sleep } from "./lib/session.ts";
import { formatTrace, summariseTrace } from "./lib/trace.ts";

const SAMPLES = Number(process.env.BENCH_SELECTION_SAMPLES ?? 25);
/** `BENCH_SELECTION_TRACE=1` prints where the main thread's time goes while opening and adding. */
const TRACE = process.env.BENCH_SELECTION_TRACE === "1";
const FRAME_MS = 16.7;
const BODY = ".qreview-body";

declare global {
  interface Window {
    __selection?: { result: number | null };
  }
}

/** What must be on screen for a sample to end (the page's CSP allows no eval of strings). */
type Done =
  | { kind: "active"; n: number }
  | { kind: "selection" }
  | { kind: "editor" }
  | { kind: "cards"; count: number };

/**
 * Arms the page: the next `eventType` input starts the clock; the clock stops after the frame
 * in which `done` first holds has painted.
 */
async function arm(page: Page, eventType: string, done: Done): Promise<void> {
  await page.evaluate(
    ({ eventType, done, body }) => {
      const state = { result: null as number | null };
      window.__selection = state;
      const holds = (): boolean => {
        switch (done.kind) {
          case "active":
            return (
              document
                .querySelectorAll(`${body} li`)
                [done.n]?.getAttribute("data-qmark")
                ?.includes("active") ?? false
            );
          case "selection":
            return (
              document.querySelector(`${body} .qcomments-slot[data-kind="add"]`) !== null &&
              (getSelection()?.toString().length ?? 0) > 0
            );
          case "editor":
            return document.querySelector(`${body} .qcomment-editor textarea`) !== null;
          case "cards":
            return document.querySelectorAll(`${body} article.qcomment`).length === done.count;
        }
      };
      document.addEventListener(
        eventType,
        (event) => {
          const start = event.timeStamp;
          const poll = () => {
            if (!holds()) {
              requestAnimationFrame(poll);
              return;
            }
            const channel = new MessageChannel();
            channel.port1.onmessage = () => {
              state.result = performance.now() - start;
            };
            channel.port2.postMessage(null);
          };
          requestAnimationFrame(poll);
        },
        { capture: true, once: true },
      );
    },
    { eventType, done, body: BODY },
  );
}

async function result(page: Page, name?: string): Promise<number> {
  const handle = await page.waitForFunction(() => window.__selection?.result ?? null, undefined, {
    timeout: 10_000,
    polling: 10,
  });
  const ms = (await handle.jsonValue()) as number;
  if (name !== undefined) {
    // Trace windows: the sample's own span, ending now (the paint is already past).
    await page.evaluate(
      ({ name, ms }) => {
        const end = performance.now();
        performance.mark(`bench:${name}:from`, { startTime: end - ms - 20 });
        performance.mark(`bench:${name}:to`, { startTime: end });
      },
      { name, ms },
    );
  }
  return ms;
}

/** The n-th list item's box, scrolled to the middle of the window and left there. */
async function itemBox(page: Page, n: number) {
  const item = page.locator(`${BODY} li`).nth(n);
  const height = page.viewportSize()?.height ?? 800;
  // The transcript may still settle its own scroll after the plan's; scroll until the item stays.
  for (let attempt = 0; attempt < 5; attempt++) {
    await item.evaluate((element) => element.scrollIntoView({ block: "center" }));
    // A person scrolls, then reads, then clicks: blocks that just came into view settle first.
    await sleep(150);
    const box = await item.boundingBox();
    if (box && box.y > 80 && box.y + 20 < height) return box;
  }
  throw new Error(`list item ${n} does not stay on screen`);
}

const RELOADS = Number(process.env.BENCH_SELECTION_RELOADS ?? 10);

/**
 * The plan's first screen after a reload, from the snapshot frame's arrival to the first task
 * after the frame that painted the card; with `comments` saved drafts, they must come back too.
 */
async function firstScreens(page: Page, comments: number): Promise<number[]> {
  const samples: number[] = [];
  for (let run = 0; run < RELOADS; run++) {
    await page.reload();
    const handle = await page.waitForFunction(
      () => {
        const snapshot = window.__bench.frames.find((frame) => frame.type === "snapshot");
        const card = window.__bench.cards[0];
        return snapshot && card?.afterPaint !== undefined
          ? card.afterPaint - snapshot.arrival
          : null;
      },
      undefined,
      { timeout: 30_000, polling: 10 },
    );
    samples.push((await handle.jsonValue()) as number);
    await page.waitForFunction(
      ({ body, comments }) =>
        document.querySelectorAll(`${body} article.qcomment`).length === comments,
      { body: BODY, comments },
      { timeout: 30_000 },
    );
    await sleep(300);
  }
  return samples;
}

/** Main-thread time by trace event over the open and the add samples' spans. */
function printTrace(json: string, profile: CpuProfile, outDir: string, samples: number) {
  const resolve = sourceMapResolver(outDir);
  const events = (JSON.parse(json) as { traceEvents: { name: string; ts: number }[] }).traceEvents;
  const marks = new Map(
    events.filter((e) => e.name.startsWith("bench:")).map((e) => [e.name, e.ts]),
  );
  for (const action of ["open", "add"]) {
    const merged = new Map<string, number>();
    const functions = new Map<string, number>();
    for (let i = 0; i < samples; i++) {
      const fromUs = marks.get(`bench:${action}${i}:from`);
      const toUs = marks.get(`bench:${action}${i}:to`);
      if (fromUs === undefined || toUs === undefined) continue;
      for (const { name, ms } of summariseTrace(json, { fromUs, toUs }).byName) {
        merged.set(name, (merged.get(name) ?? 0) + ms / samples);
      }
      for (const { name, where, ms } of summariseProfile(profile, resolve, { fromUs, toUs })
        .byFunction) {
        const key = `${name} ${where}`;
        functions.set(key, (functions.get(key) ?? 0) + ms / samples);
      }
    }
    console.log(`## ${action}, page JS per sample`);
    for (const [key, ms] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
      console.log(`  ${ms.toFixed(2).padStart(8)} ms  ${key}`);
    }
    const byName = [...merged].map(([name, ms]) => ({ name, ms })).sort((a, b) => b.ms - a.ms);
    const totalMs = byName.reduce((sum, entry) => sum + entry.ms, 0);
    console.log(formatTrace(`${action}, per sample`, { byName, totalMs }, 20));
  }
}

export async function run(): Promise<Figure[]> {
  const plan = loadBigPlan();
  // Traced runs read function names: an unminified build with source maps.
  const { outDir } = await buildPage(TRACE ? { minify: false, sourcemap: true } : {});
  const server = new BenchServer({ distDir: outDir });
  const browser = await launchChromium();
  try {
    await server.start();
    const sessionId = await server.createSession("plan selection");
    const { page, events } = await openSessionPage(browser, server, sessionId, {
      endMarker: BIG_PLAN_END,
    });
    const complete = events.next((e) => e.type === "complete", 60_000, "plan complete");
    await server.ask(sessionId, planReviewQuestion("selection", plan), "ExitPlanMode");
    await complete;
    await sleep(1000);
    const items = await page.locator(`${BODY} li`).count();
    const bare = await firstScreens(page, 0);
    const cdp = TRACE ? await page.context().newCDPSession(page) : undefined;
    if (cdp) {
      await cdp.send("Profiler.enable");
      await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
      await cdp.send("Profiler.start");
      await browser.startTracing(page, {
        categories: [
          "devtools.timeline",
          "disabled-by-default-devtools.timeline",
          "blink.user_timing",
        ],
      });
    }
    const pick: number[] = [];
    const select: number[] = [];
    const open: number[] = [];
    const add: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const n = Math.floor(((i + 0.5) / SAMPLES) * items);
      const box = await itemBox(page, n);
      // Pick the block: its outline and the add button.
      await arm(page, "click", { kind: "active", n });
      await page.mouse.click(box.x + 30, box.y + 8);
      pick.push(await result(page));
      await sleep(50);
      // Select a few words inside it: the button turns into "comment on the selected text".
      await arm(page, "mouseup", { kind: "selection" });
      await page.mouse.move(box.x + 20, box.y + 8);
      await page.mouse.down();
      await page.mouse.move(box.x + Math.min(200, box.width - 10), box.y + 8, { steps: 3 });
      await page.mouse.up();
      select.push(await result(page));
      await sleep(50);
      // Open the comment box.
      const button = page.locator(`${BODY} .qcomments-slot[data-kind="add"] button`);
      const buttonBox = await button.boundingBox();
      if (!buttonBox) throw new Error("no add button");
      await arm(page, "click", { kind: "editor" });
      await page.mouse.click(buttonBox.x + buttonBox.width / 2, buttonBox.y + buttonBox.height / 2);
      open.push(await result(page, `open${i}`));
      await page.keyboard.type(`comment ${i}`);
      // Add it: the card beside the block.
      const save = page.locator(`${BODY} .qcomment-editor button.qbtn--primary`);
      const saveBox = await save.boundingBox();
      if (!saveBox) throw new Error("no save button");
      await arm(page, "click", { kind: "cards", count: i + 1 });
      await page.mouse.click(saveBox.x + saveBox.width / 2, saveBox.y + saveBox.height / 2);
      add.push(await result(page, `add${i}`));
      await sleep(100);
    }
    if (cdp) {
      const { profile } = (await cdp.send("Profiler.stop")) as unknown as { profile: CpuProfile };
      const json = (await browser.stopTracing()).toString();
      if (process.env.BENCH_SELECTION_TRACE_OUT) {
        const { writeFileSync } = await import("node:fs");
        writeFileSync(process.env.BENCH_SELECTION_TRACE_OUT, json);
        writeFileSync(
          `${process.env.BENCH_SELECTION_TRACE_OUT}.cpuprofile`,
          JSON.stringify(profile),
        );
      }
      printTrace(json, profile, outDir, SAMPLES);
    }
    // The drafts reach the server a moment after the last comment.
    await sleep(1500);
    const commented = await firstScreens(page, SAMPLES);
    const note = (samples: number[]) =>
      `n=${samples.length}, ${items} list items, blocks spread over the plan; max ${Math.max(...samples).toFixed(1)} ms`;
    const goal = { value: FRAME_MS, on: "p95" as const };
    return [
      latencyFigure("plan selection: pick a block → painted", pick, goal, note(pick)),
      latencyFigure("plan selection: select text → painted", select, goal, note(select)),
      latencyFigure("plan selection: open the comment box → painted", open, goal, note(open)),
      latencyFigure("plan selection: add the comment → card painted", add, goal, note(add)),
      latencyFigure(
        "plan with 0 comments: reload, snapshot → first screen painted",
        bare,
        undefined,
        `n=${bare.length}, the 80 KB plan in its card; max ${Math.max(...bare).toFixed(0)} ms`,
      ),
      latencyFigure(
        `plan with ${SAMPLES} comments: reload, snapshot → first screen painted`,
        commented,
        undefined,
        `n=${commented.length}, the drafts' comments back beside their blocks; max ${Math.max(...commented).toFixed(0)} ms`,
      ),
    ];
  } finally {
    await browser.close();
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { textTable } = await import("./figures.ts");
  console.log(textTable(await run()));
}
