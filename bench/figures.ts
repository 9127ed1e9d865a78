/** One measured figure. `goal` absent means the figure is information, not a target. */
export interface Figure {
  name: string;
  unit: string;
  median?: number;
  p95?: number;
  p99?: number;
  value?: number;
  goal?: number;
  /** "max": lower is better and the measurement must stay at or under the goal. */
  goalKind: "max" | "min";
  /** Which statistic is held against the goal; defaults to value, else median. */
  judged?: "median" | "p95" | "p99" | "value";
  /** A short note printed beside the figure, e.g. the sample size. */
  note?: string;
}

/** Fewest samples a tail percentile is read from: below this a p95 is a maximum in disguise. */
export const MIN_SAMPLES_FOR_TAIL = 20;

/**
 * Percentile by nearest rank (a value that was measured, never one interpolated between two).
 * A p95 or p99 from fewer than 20 samples is NaN, printed "—", and never judged.
 */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  if (p > 50 && samples.length < MIN_SAMPLES_FOR_TAIL) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}

export const median = (samples: readonly number[]): number => percentile(samples, 50);

export function judgedValue(figure: Figure): number | undefined {
  const key = figure.judged ?? (figure.value !== undefined ? "value" : "median");
  return figure[key];
}

/** Measured ÷ goal for "max" figures (≤ 1 passes); goal ÷ measured for "min" ones. */
export function ratio(figure: Figure): number | undefined {
  const measured = judgedValue(figure);
  if (figure.goal === undefined || measured === undefined || Number.isNaN(measured)) {
    return undefined;
  }
  return figure.goalKind === "max" ? measured / figure.goal : figure.goal / measured;
}

export function passes(figure: Figure): boolean | undefined {
  const r = ratio(figure);
  return r === undefined ? undefined : r <= 1;
}

export function formatNumber(value: number | undefined): string {
  if (value === undefined || Number.isNaN(value)) return "—";
  const abs = Math.abs(value);
  if (abs >= 1000) return Math.round(value).toLocaleString("en-US");
  if (abs >= 100) return value.toFixed(0);
  if (abs >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

function measuredText(figure: Figure): string {
  const parts: string[] = [];
  if (figure.value !== undefined) parts.push(formatNumber(figure.value));
  if (figure.median !== undefined) parts.push(`p50 ${formatNumber(figure.median)}`);
  if (figure.p95 !== undefined) parts.push(`p95 ${formatNumber(figure.p95)}`);
  if (figure.p99 !== undefined) parts.push(`p99 ${formatNumber(figure.p99)}`);
  return `${parts.join(" · ")} ${figure.unit}`.trim();
}

function goalText(figure: Figure): string {
  if (figure.goal === undefined) return "—";
  const sign = figure.goalKind === "max" ? "≤" : "≥";
  const on = figure.judged && figure.judged !== "value" ? `${figure.judged} ` : "";
  return `${on}${sign} ${formatNumber(figure.goal)} ${figure.unit}`;
}

export interface TableRow {
  figure: string;
  measured: string;
  goal: string;
  ratio: string;
  verdict: string;
  note: string;
}

export function tableRows(figures: readonly Figure[]): TableRow[] {
  return figures.map((figure) => {
    const r = ratio(figure);
    const ok = passes(figure);
    return {
      figure: figure.name,
      measured: measuredText(figure),
      goal: goalText(figure),
      ratio: r === undefined ? "—" : `${r.toFixed(2)}×`,
      verdict: ok === undefined ? "" : ok ? "✓" : "✗",
      note: figure.note ?? "",
    };
  });
}

const headers: TableRow = {
  figure: "figure",
  measured: "measured",
  goal: "goal",
  ratio: "ratio",
  verdict: "",
  note: "note",
};
const columns = Object.keys(headers) as (keyof TableRow)[];

/** A plain-text table for the terminal. */
export function textTable(figures: readonly Figure[]): string {
  const rows = [headers, ...tableRows(figures)];
  const widths = columns.map((column) => Math.max(...rows.map((row) => [...row[column]].length)));
  const line = (row: TableRow) =>
    columns
      .map((column, index) => row[column].padEnd(widths[index]!))
      .join("  ")
      .trimEnd();
  const rule = widths.map((width) => "-".repeat(width)).join("  ");
  return [line(headers), rule, ...rows.slice(1).map(line)].join("\n");
}

/** The same table in GitHub markdown, for RESULTS.md. */
export function markdownTable(figures: readonly Figure[]): string {
  const escapePipes = (text: string) => text.replaceAll("|", "\\|");
  const row = (cells: string[]) => `| ${cells.map(escapePipes).join(" | ")} |`;
  return [
    row(columns.map((column) => headers[column] || "ok")),
    row(columns.map(() => "---")),
    ...tableRows(figures).map((r) => row(columns.map((column) => r[column]))),
  ].join("\n");
}
