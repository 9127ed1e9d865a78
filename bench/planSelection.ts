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
import { latencyFigure, openSessionPage, sleep } from "./lib/session.ts";

const SAMPLES = Number(process.env.BENCH_SELECTION_SAMPLES ?? 25);
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

async function result(page: Page): Promise<number> {
  const handle = await page.waitForFunction(() => window.__selection?.result ?? null, undefined, {
    timeout: 10_000,
    polling: 10,
  });
  return (await handle.jsonValue()) as number;
}

/** The centre of the n-th list item in the plan, scrolled into view. */
async function itemBox(page: Page, n: number) {
  const item = page.locator(`${BODY} li`).nth(n);
  await item.scrollIntoViewIfNeeded();
  // A person scrolls, then reads, then clicks: blocks that just came into view settle first.
  await sleep(150);
  const box = await item.boundingBox();
  if (!box) throw new Error(`list item ${n} is not on screen`);
  return box;
}

export async function run(): Promise<Figure[]> {
  const plan = loadBigPlan();
  const { outDir } = await buildPage();
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
      open.push(await result(page));
      await page.keyboard.type(`comment ${i}`);
      // Add it: the card beside the block.
      const save = page.locator(`${BODY} .qcomment-editor button.qbtn--primary`);
      const saveBox = await save.boundingBox();
      if (!saveBox) throw new Error("no save button");
      await arm(page, "click", { kind: "cards", count: i + 1 });
      await page.mouse.click(saveBox.x + saveBox.width / 2, saveBox.y + saveBox.height / 2);
      add.push(await result(page));
      await sleep(100);
    }
    const note = (samples: number[]) =>
      `n=${samples.length}, ${items} list items, blocks spread over the plan; max ${Math.max(...samples).toFixed(1)} ms`;
    const goal = { value: FRAME_MS, on: "p95" as const };
    return [
      latencyFigure("plan selection: pick a block → painted", pick, goal, note(pick)),
      latencyFigure("plan selection: select text → painted", select, goal, note(select)),
      latencyFigure("plan selection: open the comment box → painted", open, goal, note(open)),
      latencyFigure("plan selection: add the comment → card painted", add, goal, note(add)),
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
