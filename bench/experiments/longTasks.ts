// Long main-thread tasks in a Chrome trace, with their CPU time: a task far longer than its
// CPU time was waiting for a core (machine load), not working.
import { parseEvents } from "../lib/trace.ts";

/** Main-thread tasks over 20 ms: wall and CPU time, and the biggest events inside. */
export function longTasks(json: string): string {
  const events = parseEvents(json);
  const main = events.find((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain");
  const mine = events.filter((e) => e.ph === "X" && e.pid === main?.pid && e.tid === main?.tid);
  const lines: string[] = [];
  for (const task of mine.filter(
    (e) =>
      (e.name === "RunTask" || e.name === "ThreadControllerImpl::RunTask") && (e.dur ?? 0) > 20_000,
  )) {
    const end = task.ts + (task.dur ?? 0);
    const inside = mine
      .filter((e) => e !== task && e.ts >= task.ts && e.ts < end && !e.name.endsWith("RunTask"))
      .sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))
      .slice(0, 4)
      .map((e) => `${e.name} ${((e.dur ?? 0) / 1000).toFixed(1)}`);
    lines.push(
      `  task ${((task.dur ?? 0) / 1000).toFixed(1)} ms (cpu ${((task.tdur ?? 0) / 1000).toFixed(1)}): ${inside.join(", ")}`,
    );
  }
  return lines.join("\n");
}
