// `npx tsx bench/experiments/markdownVariants.ts`: times the big plan rendered by the app's
// markdown renderer against candidates (and the react-markdown one it replaced), in Chromium,
// interleaved so machine load hits every variant alike. Fresh variants rename the headings on
// every run so no section is cached. Not part of `npm run bench`.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import react from "@vitejs/plugin-react";
import { build } from "vite";
import { type Figure, median, percentile, textTable } from "../figures.ts";
import { BIG_PLAN_END, loadBigPlan } from "../fixtures/bigPlan.ts";
import { launchChromium } from "../lib/browser.ts";
import { formatTrace, summariseTrace } from "../lib/trace.ts";
import { longTasks } from "./longTasks.ts";
import type { Variant } from "./markdown/main.tsx";

const RUNS = Number(process.env.EXP_RUNS ?? 6);
// EXP_TRACE=1 also traces one more run of each variant: main-thread time by event.
const TRACE = process.env.EXP_TRACE === "1";
const variants: { name: string; renderer: Variant; fresh: boolean; className?: string }[] = [
  { name: "reactMarkdown", renderer: "reactMarkdown", fresh: true },
  { name: "app", renderer: "markdownIt", fresh: true },
  { name: "app cached", renderer: "markdownIt", fresh: false },
];
const types: Record<string, string> = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".css": "text/css",
};

const outDir = mkdtempSync(join(tmpdir(), "plangate-exp-md-"));
const server = createServer((request, response) => {
  const path = new URL(request.url ?? "/", "http://x").pathname;
  try {
    const body = readFileSync(join(outDir, path === "/" ? "index.html" : path));
    response.writeHead(200, { "content-type": types[extname(path) || ".html"] ?? "text/plain" });
    response.end(body);
  } catch {
    response.writeHead(404).end();
  }
});
try {
  await build({
    root: join(import.meta.dirname, "markdown"),
    configFile: false,
    logLevel: "silent",
    plugins: [react()],
    build: { outDir, emptyOutDir: true },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  await page.addInitScript(() => {
    const tasks: number[] = [];
    (window as unknown as { tasks: number[] }).tasks = tasks;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) tasks.push(entry.duration);
    }).observe({ type: "longtask", buffered: true });
  });
  await page.goto(`http://127.0.0.1:${port}/`);
  const plan = loadBigPlan();
  const results = new Map<string, { first: number[]; whole: number[]; longest: number[] }>();
  for (let run = 0; run <= RUNS; run++) {
    for (const variant of variants) {
      await page.evaluate(() => window.clearPlan());
      // Unmounting the last plan is a long task of its own, reported after it ends.
      await page.waitForTimeout(200);
      await page.evaluate(() => {
        (window as unknown as { tasks: number[] }).tasks.length = 0;
      });
      const text = variant.fresh ? plan.replace(/^(#{1,6} )/gm, `$1${variant.name} ${run} `) : plan;
      const timing = await page.evaluate(
        ({ text, renderer, end, className }) => window.renderPlan(text, renderer, end, className),
        { text, renderer: variant.renderer, end: BIG_PLAN_END, className: variant.className },
      );
      await page.waitForTimeout(300);
      const tasks = await page.evaluate(() => (window as unknown as { tasks: number[] }).tasks);
      if (run === 0) continue;
      const entry = results.get(variant.name) ?? { first: [], whole: [], longest: [] };
      entry.first.push(timing.first);
      entry.whole.push(timing.whole);
      entry.longest.push(Math.max(0, ...tasks));
      if (process.env.EXP_TASKS === "1")
        console.log(variant.name, Math.round(timing.whole), tasks.map(Math.round).join(" "));
      results.set(variant.name, entry);
    }
  }
  for (const variant of TRACE ? variants : []) {
    await page.evaluate(() => window.clearPlan());
    await page.waitForTimeout(300);
    const text = plan.replace(/^(#{1,6} )/gm, `$1${variant.name} trace `);
    await browser.startTracing(page, { categories: ["devtools.timeline", "toplevel", "v8"] });
    await page.evaluate(
      ({ text, renderer, end, className }) => window.renderPlan(text, renderer, end, className),
      { text, renderer: variant.renderer, end: BIG_PLAN_END, className: variant.className },
    );
    const trace = (await browser.stopTracing()).toString();
    console.log(formatTrace(variant.name, summariseTrace(trace), 8));
    console.log(longTasks(trace));
  }
  await browser.close();
  const figures: Figure[] = [];
  for (const [variant, r] of results) {
    figures.push(
      {
        name: `${variant}: first screen painted`,
        unit: "ms",
        median: median(r.first),
        p95: percentile(r.first, 95),
        goalKind: "max",
      },
      {
        name: `${variant}: whole plan painted`,
        unit: "ms",
        median: median(r.whole),
        p95: percentile(r.whole, 95),
        goalKind: "max",
      },
      {
        name: `${variant}: longest task`,
        unit: "ms",
        median: median(r.longest),
        p95: percentile(r.longest, 95),
        goalKind: "max",
      },
    );
  }
  console.log(textTable(figures));
} finally {
  server.close();
  rmSync(outDir, { recursive: true, force: true });
}
