// What happens between a question card's commit and the frame that shows it: the
// questionToPixels flow (MCP calls, generic and plan card, each cancelled by the agent) under a
// Chromium trace, and per card the time and thread time by event on each thread (main,
// compositor, raster workers, viz) from the card's insertion to its Element Timing renderTime;
// the frame's stages (insertion → BeginMainFrame → commit → activation → draw → viz swap →
// renderTime) with the main frame's CPU, the raster tasks' CPU and count (tiles) and the viz
// swap's CPU, by card kind; the first cards' timelines.
//
//   npx tsx bench/experiments/cardFrame.ts [cards per flow, default 20]
//   CARD_FRAME_CSS='…'          extra CSS for the page (a stripped page: what a rule costs)
//   CARD_FRAME_OUT=file         keeps the trace
//   CARD_FRAME_INVALIDATIONS=1  also traces style and layout invalidations (what dirtied what)
//   CARD_FRAME_ALL=1            prints every card's timeline
//   CARD_FRAME_LANG=zh-CN       the page in another language (its saved choice)
import { writeFileSync } from "node:fs";
import { BenchServer } from "../lib/benchServer.ts";
import { launchChromium } from "../lib/browser.ts";
import { buildPage } from "../lib/build.ts";
import type { CardRecord } from "../lib/pageProbe.ts";
import { addPageCss, sleep } from "../lib/session.ts";
import { parseEvents, type TraceEvent } from "../lib/trace.ts";
import { askUntilShown, connectAgent, openAgentSession } from "../questionToPixels.ts";

const PER_FLOW = Number(process.argv[2] ?? 20);

const { outDir } = await buildPage();
const server = new BenchServer({ distDir: outDir });
const browser = await launchChromium();
await server.start();
const agent = await connectAgent(server);
const { context, page, events } = await openAgentSession(browser, server, agent);
if (process.env.CARD_FRAME_LANG) {
  // W2: a saved choice wins; the page reloads in that language.
  await page.evaluate(
    (lang) => localStorage.setItem("plangate.language", lang),
    process.env.CARD_FRAME_LANG,
  );
  await page.reload();
  await page.waitForFunction(() => window.__bench.frames.some((f) => f.type === "snapshot"));
}
await sleep(500);
if (process.env.CARD_FRAME_CSS) await addPageCss(page, process.env.CARD_FRAME_CSS);
// Marks each card's insertion on the trace clock (the probe's `appeared` is the same callback).
await page.evaluate(() => {
  let n = 0;
  new MutationObserver((mutations) => {
    for (const m of mutations)
      for (const node of m.addedNodes)
        if (node instanceof Element && (node.matches(".qcard") || node.querySelector(".qcard")))
          performance.mark(`bench:card:${n++}`);
  }).observe(document, { childList: true, subtree: true });
});
const startIndex = await page.evaluate(() => window.__bench.cards.length);
await browser.startTracing(page, {
  categories: [
    "devtools.timeline",
    "disabled-by-default-devtools.timeline",
    "disabled-by-default-devtools.timeline.frame",
    "blink",
    "cc",
    "viz",
    "gpu",
    "benchmark",
    "toplevel",
    "blink.user_timing",
    ...(process.env.CARD_FRAME_INVALIDATIONS
      ? ["disabled-by-default-devtools.timeline.invalidationTracking"]
      : []),
  ],
});
const sync = await page.evaluate(() => {
  const at = performance.now();
  performance.mark("bench:sync");
  return { at, origin: performance.timeOrigin };
});
for (let i = 0; i < PER_FLOW * 2; i++) {
  const tag = `t${i}`;
  const flow = i % 2 === 0 ? "generic" : "plan";
  const call = await askUntilShown(agent, events, flow, tag);
  await sleep(150);
  call.abort();
  await sleep(60 + Math.random() * 60);
}
const cards = (await page.evaluate(() => window.__bench.cards)).slice(startIndex) as CardRecord[];
const trace = (await browser.stopTracing()).toString();
if (process.env.CARD_FRAME_OUT) writeFileSync(process.env.CARD_FRAME_OUT, trace);
await agent.close();
await context.close();
await browser.close();
await server.stop();

const all = parseEvents(trace);
const threadNames = new Map<string, string>();
for (const e of all)
  if (e.ph === "M" && e.name === "thread_name")
    threadNames.set(`${e.pid}:${e.tid}`, e.args?.name ?? "?");
const syncTs = all.find((e) => e.name === "bench:sync")?.ts;
if (syncTs === undefined) throw new Error("no sync mark in the trace");
// Page clock (timeOrigin + now, ms) → trace µs.
const toTrace = (pageMs: number) => syncTs + (pageMs - sync.origin - sync.at) * 1000;
const marks = all
  .filter((e) => e.name.startsWith("bench:card:"))
  .sort((a, b) => a.ts - b.ts)
  .map((e) => e.ts);

const threadOf = (e: TraceEvent) => {
  const name = threadNames.get(`${e.pid}:${e.tid}`) ?? "?";
  return name.replace(/\d+$/, "");
};
const complete = all.filter((e) => e.ph === "X" && e.dur !== undefined);

interface Row {
  wall: Map<string, number>;
  cpu: Map<string, number>;
}
const totals = new Map<string, Row>();
const add = (key: string, name: string, wall: number, cpu: number) => {
  const row = totals.get(key) ?? { wall: new Map(), cpu: new Map() };
  totals.set(key, row);
  row.wall.set(name, (row.wall.get(name) ?? 0) + wall);
  row.cpu.set(name, (row.cpu.get(name) ?? 0) + cpu);
};
const lags: number[] = [];
// Per card: the stages of the frame that shows it, on the trace clock (ms from insertion).
const stageNames = [
  "→ main frame starts",
  "main frame (BeginMainFrame → commit)",
  "commit → activation (raster)",
  "activation → draw",
  "draw → viz swap done",
  "swap → renderTime",
] as const;
const byKind = new Map<string, { stages: number[][]; extra: Record<string, number[]> }>();
const onThread = (name: string) => (e: TraceEvent) => threadOf(e) === name;
const timelines: string[] = [];
let counted = 0;
cards.forEach((card, i) => {
  const from = marks[i];
  if (from === undefined || card.rendered === undefined) return;
  const to = toTrace(card.rendered);
  lags.push((to - from) / 1000);
  const main = complete.filter(onThread("CrRendererMain"));
  const commit = main.find((e) => e.name === "Commit" && e.ts > from);
  const frame =
    commit &&
    main.find(
      (e) =>
        e.name === "ProxyMain::BeginMainFrame" &&
        e.ts <= commit.ts &&
        e.ts + (e.dur ?? 0) >= commit.ts,
    );
  const activation =
    commit &&
    all.find(
      (e) => e.name === "ActivateLayerTree" && e.ts > commit.ts && threadOf(e) === "Compositor",
    );
  const draw =
    activation &&
    all.find(
      (e) => e.name === "DrawFrame" && e.ts >= activation.ts && threadOf(e) === "Compositor",
    );
  const swap = draw && complete.find((e) => e.name === "Display::DrawAndSwap" && e.ts >= draw.ts);
  if (commit && frame && activation && draw && swap) {
    const kind = byKind.get(card.kind) ?? {
      stages: stageNames.map(() => []),
      extra: { mainCpu: [], rasterCpu: [], tiles: [], vizCpu: [] },
    };
    byKind.set(card.kind, kind);
    const { stages: stageSamples, extra } = kind;
    const swapEnd = swap.ts + (swap.dur ?? 0);
    const points = [
      from,
      frame.ts,
      commit.ts + (commit.dur ?? 0),
      activation.ts,
      draw.ts,
      swapEnd,
      to,
    ];
    stageNames.forEach((_, k) => {
      stageSamples[k]!.push((points[k + 1]! - points[k]!) / 1000);
    });
    extra.mainCpu!.push((frame.tdur ?? 0) / 1000);
    const rasters = complete.filter(
      (e) => e.name === "RasterTask" && e.ts >= commit.ts && e.ts <= activation.ts,
    );
    extra.rasterCpu!.push(rasters.reduce((sum, e) => sum + (e.tdur ?? 0), 0) / 1000);
    extra.tiles!.push(rasters.length);
    extra.vizCpu!.push((swap.tdur ?? 0) / 1000);
  }
  counted++;
  // Self time per event, per thread, for complete events inside [from, to].
  const inside = complete
    .filter((e) => e.ts >= from - 1 && e.ts <= to)
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const stacks = new Map<string, { end: number; name: string; tdur: number }[]>();
  for (const e of inside) {
    const key = `${e.pid}:${e.tid}`;
    const stack = stacks.get(key) ?? [];
    stacks.set(key, stack);
    while (stack.length > 0 && stack[stack.length - 1]!.end <= e.ts) stack.pop();
    const parent = stack[stack.length - 1];
    const thread = threadOf(e);
    if (parent) add(thread, parent.name, -(e.dur ?? 0), -(e.tdur ?? 0));
    add(thread, e.name, e.dur ?? 0, e.tdur ?? 0);
    stack.push({ end: e.ts + (e.dur ?? 0), name: e.name, tdur: e.tdur ?? 0 });
  }
  if (i < 6 || process.env.CARD_FRAME_ALL) {
    const keyNames =
      /^(BeginFrame|BeginMainThreadFrame|RequestMainThreadFrame|FireAnimationFrame|UpdateLayoutTree|Layout|PrePaint|Paint|Layerize|Commit|ActivateLayerTree|DrawFrame|RasterTask|Display::DrawAndSwap|ScheduledActionSendBeginMainFrame|ProxyMain::BeginMainFrame|TimerFire|FunctionCall|EventDispatch|RunTask|ThreadControllerImpl::RunTask|Graphics.Pipeline|PipelineReporter|SwapBuffers|Scheduler::BeginFrame|ProxyImpl::ScheduledActionDraw|LayerTreeHostImpl::PrepareToDraw|SkiaOutputSurfaceImplOnGpu::SwapBuffers|DirectRenderer::DrawFrame|TileManager::AssignGpuMemoryToTiles|PaintLayer::paint)$/;
    const lines = all
      .filter((e) => e.ts >= from - 200 && e.ts <= to + 500 && keyNames.test(e.name))
      .filter((e) => !(e.name.endsWith("RunTask") && (e.dur ?? 0) < 300))
      .sort((a, b) => a.ts - b.ts)
      .map(
        (e) =>
          `    ${((e.ts - from) / 1000).toFixed(2).padStart(7)}  ${threadOf(e).padEnd(22)} ${e.ph} ${e.name}${e.dur !== undefined ? ` ${(e.dur / 1000).toFixed(2)} (cpu ${((e.tdur ?? 0) / 1000).toFixed(2)})` : ""}`,
      );
    timelines.push(
      `card ${i} (${card.kind}): inserted → renderTime ${((to - from) / 1000).toFixed(1)} ms\n${lines.join("\n")}`,
    );
  }
});
lags.sort((a, b) => a - b);
const pct = (p: number) => lags[Math.min(lags.length - 1, Math.ceil((p / 100) * lags.length) - 1)];
console.log(
  `cards ${counted}/${cards.length}; inserted → renderTime p50 ${pct(50)?.toFixed(1)} p95 ${pct(95)?.toFixed(1)} ms`,
);
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
for (const [kind, { stages: stageSamples, extra }] of byKind) {
  console.log(`${kind}: stages (n=${stageSamples[0]!.length}), median / mean ms:`);
  stageNames.forEach((name, k) => {
    console.log(
      `  ${med(stageSamples[k]!).toFixed(2).padStart(6)} / ${mean(stageSamples[k]!).toFixed(2).padStart(6)}  ${name}`,
    );
  });
  for (const [name, xs] of Object.entries(extra))
    console.log(
      `  ${med(xs).toFixed(2).padStart(6)} / ${mean(xs).toFixed(2).padStart(6)}  ${name}`,
    );
}
for (const [thread, row] of [...totals].sort()) {
  const top = [...row.wall]
    .filter(([, us]) => us / counted > 20)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 14);
  if (top.length === 0) continue;
  console.log(`\n## ${thread}: per card, self wall / cpu (ms)`);
  for (const [name, us] of top) {
    console.log(
      `  ${(us / counted / 1000).toFixed(2).padStart(7)} / ${((row.cpu.get(name) ?? 0) / counted / 1000).toFixed(2).padStart(6)}  ${name}`,
    );
  }
}
console.log(`\n${timelines.join("\n\n")}`);
process.exit(0);
