/** Past this many line pairs a full table costs too much; the changed middle is listed whole. */
const MAX_CELLS = 4_000_000;

/**
 * V6: what the person changed in a plan, as diff lines (` ` kept, `-` removed, `+` added),
 * so the model can see their edits. Common head and tail lines are trimmed to three of context.
 */
export function planEditDiff(before: string, after: string): string {
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
  const context = 3;
  const lead = a.slice(Math.max(0, head - context), head).map((line) => ` ${line}`);
  const trail = a.slice(endA, endA + context).map((line) => ` ${line}`);
  return [...lead, ...middle(a.slice(head, endA), b.slice(head, endB)), ...trail].join("\n");
}

function middle(a: readonly string[], b: readonly string[]): string[] {
  if (a.length * b.length > MAX_CELLS) {
    return [...a.map((line) => `-${line}`), ...b.map((line) => `+${line}`)];
  }
  // Longest common subsequence, walked forwards so removals come before additions.
  const rows = a.length + 1;
  const cols = b.length + 1;
  const table = new Uint32Array(rows * cols);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i * cols + j] =
        a[i] === b[j]
          ? table[(i + 1) * cols + j + 1]! + 1
          : Math.max(table[(i + 1) * cols + j]!, table[i * cols + j + 1]!);
    }
  }
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push(` ${a[i++]}`);
      j++;
    } else if (
      i < a.length &&
      (j === b.length || table[(i + 1) * cols + j]! >= table[i * cols + j + 1]!)
    ) {
      out.push(`-${a[i++]}`);
    } else {
      out.push(`+${b[j++]}`);
    }
  }
  return out;
}
