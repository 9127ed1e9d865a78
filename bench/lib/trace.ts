/** One Chrome trace event (the JSON Chromium writes for `browser.startTracing`). */
export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  /** Thread (CPU) time of a complete event, where Chromium records it. */
  tdur?: number;
  pid: number;
  tid: number;
  args?: {
    name?: string;
    data?: { functionName?: string; url?: string; lineNumber?: number; type?: string };
  };
}

export interface TraceSummary {
  /** Main-thread self time per event name (FunctionCall, Layout, Paint, …), in ms. */
  byName: { name: string; ms: number }[];
  totalMs: number;
}

/**
 * Self time per event name on the renderer main thread, within [fromUs, toUs] of the trace
 * clock when given: says how much of a slow frame is script, style, layout or paint.
 */
export function summariseTrace(
  json: string,
  window?: { fromUs: number; toUs: number },
): TraceSummary {
  const parsed = JSON.parse(json) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
  const mains = new Set(
    events
      .filter((e) => e.ph === "M" && e.name === "thread_name" && e.args?.name === "CrRendererMain")
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const complete = events
    .filter((e) => e.ph === "X" && e.dur !== undefined && mains.has(`${e.pid}:${e.tid}`))
    .filter((e) => !window || (e.ts + (e.dur ?? 0) >= window.fromUs && e.ts <= window.toUs))
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const self = new Map<string, number>();
  const stacks = new Map<string, { end: number; name: string }[]>();
  for (const event of complete) {
    const key = `${event.pid}:${event.tid}`;
    const stack = stacks.get(key) ?? [];
    stacks.set(key, stack);
    while (stack.length > 0 && stack[stack.length - 1]!.end <= event.ts) stack.pop();
    const dur = event.dur ?? 0;
    const parent = stack[stack.length - 1];
    if (parent) self.set(parent.name, (self.get(parent.name) ?? 0) - dur);
    self.set(event.name, (self.get(event.name) ?? 0) + dur);
    stack.push({ end: event.ts + dur, name: event.name });
  }
  const byName = [...self]
    .map(([name, us]) => ({ name, ms: us / 1000 }))
    .filter((entry) => entry.ms > 0.05)
    .sort((a, b) => b.ms - a.ms);
  return { byName, totalMs: byName.reduce((sum, entry) => sum + entry.ms, 0) };
}

export function formatTrace(title: string, summary: TraceSummary, top = 15): string {
  const lines = [`## ${title}: ${summary.totalMs.toFixed(0)} ms on the main thread`, ""];
  for (const { name, ms } of summary.byName.slice(0, top)) {
    lines.push(`  ${ms.toFixed(1).padStart(8)} ms  ${name}`);
  }
  return lines.join("\n");
}

/** A top-level task of the renderer main thread, on the trace clock (µs). */
export interface TraceTask {
  ts: number;
  dur: number;
  /**
   * The thread time it ran (CPU), or `dur` where the trace has none. On a loaded machine the
   * wall time `dur` includes waiting for a core; this is what the task itself cost.
   */
  cpu: number;
}

export function parseEvents(json: string): TraceEvent[] {
  const parsed = JSON.parse(json) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  return Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
}

/**
 * Every task the renderer main thread ran, whatever its length: unlike `longtask` entries,
 * which exist only for tasks over 50 ms, a 12 ms task is seen as 12 ms. Needs the `toplevel`
 * trace category. Also returns the trace time of each `performance.mark` by name, so page
 * times can be placed on the trace clock.
 */
export function mainThreadTasks(json: string): { tasks: TraceTask[]; marks: Map<string, number> } {
  const events = parseEvents(json);
  const mains = new Set(
    events
      .filter((e) => e.ph === "M" && e.name === "thread_name" && e.args?.name === "CrRendererMain")
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const tasks = events
    .filter(
      (e) =>
        e.ph === "X" &&
        (e.name === "RunTask" || e.name === "ThreadControllerImpl::RunTask") &&
        mains.has(`${e.pid}:${e.tid}`),
    )
    .map((e) => ({ ts: e.ts, dur: e.dur ?? 0, cpu: e.tdur ?? e.dur ?? 0 }));
  const marks = new Map<string, number>();
  for (const e of events) {
    if (e.name.startsWith("bench:") && !marks.has(e.name)) marks.set(e.name, e.ts);
  }
  return { tasks, marks };
}

/** The longest task overlapping [fromUs, toUs] of the trace clock, in ms (wall, or `cpu`). */
export function longestTask(
  tasks: readonly TraceTask[],
  fromUs: number,
  toUs: number,
  measure: "dur" | "cpu" = "dur",
): number {
  let longest = 0;
  for (const task of tasks) {
    if (task.ts + task.dur >= fromUs && task.ts <= toUs) longest = Math.max(longest, task[measure]);
  }
  return longest / 1000;
}
