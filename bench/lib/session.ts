import type { Browser, BrowserContext, Page } from "playwright-core";
import type { Figure } from "../figures.ts";
import { median, percentile } from "../figures.ts";
import type { BenchServer } from "./benchServer.ts";
import { ProbeEvents, type ProbeOptions, probePage, readProbe } from "./pageProbe.ts";

export const CARD_SELECTOR = ".qcard";

export interface OpenedPage {
  context: BrowserContext;
  page: Page;
  events: ProbeEvents;
}

/**
 * Adds CSS to the page (an experiment's stripped page: what a rule costs). A constructed sheet:
 * CSSOM is not subject to the page's CSP, a <style> tag is.
 */
export async function addPageCss(page: Page, css: string): Promise<void> {
  await page.evaluate((text) => {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(text);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  }, css);
}

/** A probed page on the session `#/s/<id>`, loaded and connected (its snapshot arrived). */
export async function openSessionPage(
  browser: Browser,
  server: BenchServer,
  sessionId: string,
  probe: Partial<ProbeOptions> = {},
): Promise<OpenedPage> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
  const page = await context.newPage();
  const events = new ProbeEvents();
  await probePage(page, { cardSelector: CARD_SELECTOR, ...probe }, events.listener);
  await page.goto(`${server.url}#/s/${encodeURIComponent(sessionId)}`);
  await page.waitForFunction(
    () => window.__bench.frames.some((frame) => frame.type === "snapshot"),
    undefined,
    { timeout: 20_000, polling: 50 },
  );
  return { context, page, events };
}

export async function clockOffset(page: Page): Promise<number> {
  const state = await readProbe(page);
  return median(state.clockOffsets);
}

/** A latency figure from samples: p50, p95 and p99 shown, one of them judged. */
export function latencyFigure(
  name: string,
  samples: number[],
  goal?: { value: number; on: "median" | "p95" | "p99" },
  note?: string,
): Figure {
  const figure: Figure = {
    name,
    unit: "ms",
    median: median(samples),
    p95: percentile(samples, 95),
    goalKind: "max",
    note: note ?? `n=${samples.length}`,
  };
  if (goal) {
    figure.goal = goal.value;
    figure.judged = goal.on;
    if (goal.on === "p99") figure.p99 = percentile(samples, 99);
  }
  return figure;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
