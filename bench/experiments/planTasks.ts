// Experiment: the big-plan runs (as bigPlan.ts) traced with devtools.timeline, printing every
// main-thread task over PLAN_TASK_MS (wall or CPU) with the events it holds, to see what the
// long tasks are without the profiler's invalidation tracking.
// PLAN_TRACE_OUT=file.json keeps the trace.
import { writeFileSync } from "node:fs";
import { scrollToEnd } from "../bigPlan.ts";
import { BIG_PLAN_END, loadBigPlan } from "../fixtures/bigPlan.ts";
import { planShapes } from "../fixtures/planShapes.ts";
import { planReviewQuestion } from "../fixtures/questions.ts";
import { BenchServer } from "../lib/benchServer.ts";
import { launchChromium } from "../lib/browser.ts";
import { buildPage } from "../lib/build.ts";
import { openSessionPage, sleep } from "../lib/session.ts";
import { parseEvents } from "../lib/trace.ts";

const LIMIT = Number(process.env.PLAN_TASK_MS ?? 16) * 1000;
const shapeWord = process.env.PLAN_SHAPE ?? "list";
const runs = Number(process.env.PLAN_RUNS ?? 3);

const { outDir } = await buildPage({ minify: process.env.PLAN_MINIFY !== "0", sourcemap: false });
const server = new BenchServer({ distDir: outDir });
const browser = await launchChromium();
try {
  await server.start();
  const sessionId = await server.createSession("plan tasks");
  const { page, events } = await openSessionPage(browser, server, sessionId, {
    endMarker: BIG_PLAN_END,
  });
  // PLAN_CSS: a style added to the page, to try what a rule would save.
  if (process.env.PLAN_CSS) await page.addStyleTag({ content: process.env.PLAN_CSS });
  // PLAN_SETTLE_MS: wait after the page's snapshot before tracing (its own first frames done).
  await sleep(Number(process.env.PLAN_SETTLE_MS ?? 0));
  const make =
    shapeWord === "80"
      ? (i: number) => loadBigPlan().replace(/^(#{1,6} .*)$/gm, `$1 (run ${i})`)
      : Object.entries(planShapes).find(([n]) => n.includes(shapeWord))?.[1];
  if (!make) throw new Error("no shape");
  // PLAN_PRIME=1: a small plan card shown and withdrawn first, to see what a warm card saves.
  if (process.env.PLAN_PRIME) {
    const shown = events.next((e) => e.type === "complete", 60_000, "complete");
    await server.ask(
      sessionId,
      planReviewQuestion("prime", `# Plan\n\n- one\n- two\n\n${BIG_PLAN_END}\n`),
      "ExitPlanMode",
    );
    await shown;
    await server.abortHead(sessionId);
    await sleep(1000);
  }
  // PLAN_PROFILE_OUT=file.cpuprofile: a sampling CPU profile of the same runs (use PLAN_MINIFY=0).
  const cdp = process.env.PLAN_PROFILE_OUT ? await page.context().newCDPSession(page) : undefined;
  if (cdp) {
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
    await cdp.send("Profiler.start");
  }
  await browser.startTracing(page, {
    categories: (
      process.env.PLAN_CATEGORIES ?? "toplevel,devtools.timeline,blink.user_timing,v8.execute"
    ).split(","),
  });
  for (let i = 0; i < runs; i++) {
    await page.evaluate((i) => performance.mark(`bench:ask${i}`), i);
    const complete = events.next((e) => e.type === "complete", 60_000, "complete");
    await server.ask(sessionId, planReviewQuestion(`t${i}`, make(i)), "ExitPlanMode");
    await complete;
    await page.evaluate((i) => performance.mark(`bench:scroll${i}`), i);
    await scrollToEnd(page);
    await page.evaluate((i) => performance.mark(`bench:end${i}`), i);
    await server.abortHead(sessionId);
    await sleep(300);
  }
  const json = (await browser.stopTracing()).toString();
  if (cdp && process.env.PLAN_PROFILE_OUT) {
    const { profile } = await cdp.send("Profiler.stop");
    writeFileSync(process.env.PLAN_PROFILE_OUT, JSON.stringify(profile));
  }
  if (process.env.PLAN_TRACE_OUT) writeFileSync(process.env.PLAN_TRACE_OUT, json);
  const all = parseEvents(json);
  const main = all.find((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain");
  const mine = all.filter((e) => e.pid === main?.pid && e.tid === main?.tid);
  const marks = mine
    .filter((e) => e.name.startsWith("bench:"))
    .map((e) => ({ name: e.name, ts: e.ts }));
  const phase = (ts: number) => [...marks].reverse().find((m) => m.ts <= ts)?.name ?? "-";
  const tasks = mine.filter(
    (e) => e.ph === "X" && (e.name === "RunTask" || e.name === "ThreadControllerImpl::RunTask"),
  );
  for (const task of tasks) {
    const dur = task.dur ?? 0;
    const cpu = task.tdur ?? dur;
    if (dur < LIMIT && cpu < LIMIT) continue;
    const end = task.ts + dur;
    const inside = mine.filter((e) => e.ph === "X" && e !== task && e.ts >= task.ts && e.ts < end);
    // self time per event name
    inside.sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
    const self = new Map<string, number>();
    const stack: { end: number; key: string }[] = [];
    for (const e of inside) {
      while (stack.length && stack[stack.length - 1]!.end <= e.ts) stack.pop();
      const d = e.dur ?? 0;
      const fn = e.args?.data?.functionName;
      const key =
        e.name === "FunctionCall"
          ? `FunctionCall ${fn || "?"}@${(e.args?.data?.url ?? "").split("/").pop()}:${e.args?.data?.lineNumber}`
          : e.name === "EventDispatch"
            ? `EventDispatch ${e.args?.data?.type}`
            : e.name;
      const parent = stack[stack.length - 1];
      if (parent) self.set(parent.key, (self.get(parent.key) ?? 0) - d);
      self.set(key, (self.get(key) ?? 0) + d);
      stack.push({ end: e.ts + d, key });
    }
    const top = [...self]
      .filter(([, us]) => us > 500)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 7);
    console.log(
      `${phase(task.ts).padEnd(14)} task ${(dur / 1000).toFixed(1)} ms cpu ${(cpu / 1000).toFixed(1)}: ${top.map(([k, us]) => `${k} ${(us / 1000).toFixed(1)}`).join(", ")}`,
    );
  }
} finally {
  await browser.close();
  await server.stop();
}
