// Experiment: one V1 sample's main-thread timeline from a planSelection trace
// (BENCH_SELECTION_TRACE_OUT): every task in the sample's span with the events it holds, to see
// how many tasks, renders and frames lie between the input and the painted result; with an
// action alone, the CPU of every sample's click (median, p90), to compare two builds' traces.
// Usage: npx tsx bench/experiments/selectionTimeline.ts trace.json add 3 [open 3 …] | add
import { readFileSync } from "node:fs";
import { parseEvents } from "../lib/trace.ts";

const [file, ...pairs] = process.argv.slice(2);
if (!file) throw new Error("usage: selectionTimeline.ts trace.json action index …");
const all = parseEvents(readFileSync(file, "utf8"));
const main = all.find((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain");
const mine = all.filter((e) => e.pid === main?.pid && e.tid === main?.tid);
const mark = (name: string) => all.find((e) => e.name === name)?.ts;
const SHOWN = new Set([
  "EventDispatch",
  "FunctionCall",
  "TimerFire",
  "FireAnimationFrame",
  "RunMicrotasks",
  "UpdateLayoutTree",
  "Layout",
  "PrePaint",
  "Paint",
  "Commit",
  "Layerize",
  "HitTest",
  "ParseHTML",
  "EvaluateScript",
  "v8.compile",
  "MinorGC",
  "MajorGC",
  "BeginMainThreadFrame",
]);
if (pairs.length === 1) clickCosts(pairs[0]!);
for (let p = 0; p + 1 < pairs.length; p += 2) {
  const action = pairs[p];
  const index = pairs[p + 1];
  const from = mark(`bench:${action}${index}:from`);
  const to = mark(`bench:${action}${index}:to`);
  if (from === undefined || to === undefined) continue;
  console.log(`## ${action}${index}: ${((to - from) / 1000).toFixed(1)} ms window`);
  const events = mine
    .filter((e) => (e.ph === "X" || e.ph === "I" || e.ph === "i") && e.ts >= from && e.ts <= to)
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const stack: number[] = [];
  for (const e of events) {
    while (stack.length && stack[stack.length - 1]! <= e.ts) stack.pop();
    const isTask = e.name === "RunTask" || e.name === "ThreadControllerImpl::RunTask";
    if (isTask || SHOWN.has(e.name) || e.name.startsWith("bench:")) {
      const data = e.args?.data;
      const what =
        e.name === "EventDispatch"
          ? data?.type
          : e.name === "FunctionCall"
            ? `${data?.functionName || "?"}@${(data?.url ?? "").split("/").pop()}:${data?.lineNumber}`
            : "";
      const depth = isTask ? 0 : stack.length;
      console.log(
        `${((e.ts - from) / 1000).toFixed(2).padStart(7)} ${"  ".repeat(depth)}${e.name} ${what} ${((e.dur ?? 0) / 1000).toFixed(2)}${e.tdur !== undefined ? ` cpu ${(e.tdur / 1000).toFixed(2)}` : ""}`,
      );
    }
    if (e.ph === "X") stack.push(e.ts + (e.dur ?? 0));
  }
}

/** Per sample: the click's dispatch (wall, CPU), its whole task's CPU, the CPU of tasks after it. */
function clickCosts(action: string) {
  const tasks = mine.filter(
    (e) => e.ph === "X" && (e.name === "RunTask" || e.name === "ThreadControllerImpl::RunTask"),
  );
  const rows: Record<string, number>[] = [];
  for (let i = 0; ; i++) {
    const from = mark(`bench:${action}${i}:from`);
    const to = mark(`bench:${action}${i}:to`);
    if (from === undefined || to === undefined) break;
    const click = mine.find(
      (e) =>
        e.name === "EventDispatch" && e.args?.data?.type === "click" && e.ts >= from && e.ts <= to,
    );
    const task = click && tasks.find((t) => t.ts <= click.ts && t.ts + (t.dur ?? 0) >= click.ts);
    if (!click || !task) continue;
    const cpu = (e: { tdur?: number; dur?: number }) => (e.tdur ?? e.dur ?? 0) / 1000;
    const later = tasks.filter((t) => t.ts > click.ts && t.ts <= to);
    rows.push({
      "click wall": (click.dur ?? 0) / 1000,
      "click cpu": cpu(click),
      "task cpu": cpu(task),
      "later tasks cpu": later.reduce((sum, t) => sum + cpu(t), 0),
    });
  }
  console.log(`## ${action}: ${rows.length} samples`);
  for (const key of Object.keys(rows[0] ?? {})) {
    const sorted = rows.map((row) => row[key]!).sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!;
    console.log(`  ${key.padEnd(16)} median ${at(0.5).toFixed(2)}  p90 ${at(0.9).toFixed(2)} ms`);
  }
}
