export type DiffOp = "same" | "add" | "del";

export interface DiffLine {
  op: DiffOp;
  text: string;
}

/** Past this many edits the two texts share little; listing them all says it just as well. */
const MAX_EDITS = 1_500;

const line = (op: DiffOp) => (text: string) => ({ op, text });

/**
 * X4: a line diff (Myers' shortest edit script) from `before` to `after`. Common head and
 * tail lines are split off first, since revisions of a plan usually change a few sections.
 */
export function diffLines(before: string, after: string): DiffLine[] {
  const a = before.split("\n");
  const b = after.split("\n");
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let endA = a.length;
  let endB = b.length;
  while (endA > head && endB > head && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  return [
    ...a.slice(0, head).map(line("same")),
    ...shortestEdit(a.slice(head, endA), b.slice(head, endB)),
    ...a.slice(endA).map(line("same")),
  ];
}

function shortestEdit(a: string[], b: string[]): DiffLine[] {
  const n = a.length;
  const m = b.length;
  if (n === 0) return b.map(line("add"));
  if (m === 0) return a.map(line("del"));
  const max = Math.min(n + m, MAX_EDITS);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  // trace[d] is the furthest x on each diagonal before step d.
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && (v[k - 1 + offset] ?? 0) < (v[k + 1 + offset] ?? 0));
      let x = down ? (v[k + 1 + offset] ?? 0) : (v[k - 1 + offset] ?? 0) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[k + offset] = x;
      if (x >= n && y >= m) return backtrack(trace, a, b, offset);
    }
  }
  return [...a.map(line("del")), ...b.map(line("add"))];
}

function backtrack(trace: Int32Array[], a: string[], b: string[], offset: number): DiffLine[] {
  const out: DiffLine[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = trace.length - 1; d >= 0; d--) {
    const v = trace[d] as Int32Array;
    const k = x - y;
    const down = k === -d || (k !== d && (v[k - 1 + offset] ?? 0) < (v[k + 1 + offset] ?? 0));
    const prevK = down ? k + 1 : k - 1;
    const prevX = v[prevK + offset] ?? 0;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      out.push({ op: "same", text: a[x - 1] ?? "" });
      x--;
      y--;
    }
    if (d > 0) {
      if (x === prevX) out.push({ op: "add", text: b[y - 1] ?? "" });
      else out.push({ op: "del", text: a[x - 1] ?? "" });
    }
    x = prevX;
    y = prevY;
  }
  return out.reverse();
}

export type DiffRow = DiffLine | { op: "skip"; count: number };

/** Long unchanged stretches fold to one row, keeping `context` lines around each change. */
export function foldUnchanged(lines: readonly DiffLine[], context = 2): DiffRow[] {
  const near = lines.map((_, index) =>
    lines
      .slice(Math.max(0, index - context), index + context + 1)
      .some((entry) => entry.op !== "same"),
  );
  const rows: DiffRow[] = [];
  let skipped = 0;
  lines.forEach((entry, index) => {
    if (near[index]) {
      if (skipped > 0) rows.push({ op: "skip", count: skipped });
      skipped = 0;
      rows.push(entry);
    } else {
      skipped++;
    }
  });
  if (skipped > 0) rows.push({ op: "skip", count: skipped });
  return rows;
}
