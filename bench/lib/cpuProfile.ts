import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { SourceMapConsumer } from "source-map-js";
import { repoRoot } from "./build.ts";

/** The V8 CPU profile format (Chrome DevTools protocol `Profiler.Profile`, node --cpu-prof). */
export interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
    children?: number[];
  }[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface Origin {
  /** A package name, an app folder, or a V8 bucket such as "(garbage collector)". */
  group: string;
  where: string;
}

export type OriginResolver = (url: string, line: number, column: number) => Origin | undefined;

/** `…/node_modules/@scope/pkg/…` → `@scope/pkg`; our files by folder; node internals as node. */
export function groupOfPath(path: string): string {
  const clean = path.replace(/^file:\/\//, "").replace(/\?.*$/, "");
  const marker = "node_modules/";
  const at = clean.lastIndexOf(marker);
  if (at >= 0) {
    const parts = clean.slice(at + marker.length).split("/");
    return parts[0]?.startsWith("@") ? `${parts[0]}/${parts[1]}` : (parts[0] ?? clean);
  }
  if (clean.startsWith("node:")) return "(node internals)";
  const rel = clean.startsWith("/") ? relative(repoRoot, clean) : clean.replace(/^(\.\.\/)+/, "");
  const parts = rel.split("/");
  if (parts[0] === "src" && parts.length > 2) return `src/${parts[1]}/${parts[2]}`;
  return parts.slice(0, 2).join("/") || "(unknown)";
}

/** Maps positions in the built page's scripts back to their sources with the build's maps. */
export function sourceMapResolver(outDir: string): OriginResolver {
  const consumers = new Map<string, SourceMapConsumer | null>();
  const assets = join(outDir, "assets");
  const consumerFor = (url: string) => {
    const file = basename(new URL(url).pathname);
    if (!consumers.has(file)) {
      const mapPath = join(assets, `${file}.map`);
      consumers.set(
        file,
        existsSync(mapPath)
          ? new SourceMapConsumer(JSON.parse(readFileSync(mapPath, "utf8")))
          : null,
      );
    }
    return consumers.get(file) ?? null;
  };
  return (url, line, column) => {
    if (!url.startsWith("http") || line < 0 || column < 0) return undefined;
    const consumer = consumerFor(url);
    if (!consumer) return undefined;
    const position = consumer.originalPositionFor({ line: line + 1, column });
    if (!position.source) return undefined;
    const source = resolve(dirname(join(assets, "x")), position.source);
    return { group: groupOfPath(source), where: `${relative(repoRoot, source)}:${position.line}` };
  };
}

const defaultResolver: OriginResolver = (url, line) =>
  url
    ? { group: groupOfPath(url), where: `${url.replace(/^file:\/\//, "")}:${line + 1}` }
    : undefined;

export interface ProfileSummary {
  totalMs: number;
  byGroup: { group: string; ms: number }[];
  byFunction: { name: string; where: string; group: string; ms: number }[];
}

/** Self time per function and per package, optionally within [fromUs, toUs] of the profile clock. */
export function summariseProfile(
  profile: CpuProfile,
  resolver: OriginResolver = defaultResolver,
  window?: { fromUs: number; toUs: number },
): ProfileSummary {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<number, number>();
  let time = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    time += profile.timeDeltas[i] ?? 0;
    const next = profile.timeDeltas[i + 1] ?? 0;
    if (window && (time < window.fromUs || time > window.toUs)) continue;
    const id = profile.samples[i]!;
    selfUs.set(id, (selfUs.get(id) ?? 0) + next);
  }
  const byGroup = new Map<string, number>();
  const byFunction = new Map<string, { name: string; where: string; group: string; ms: number }>();
  let total = 0;
  for (const [id, us] of selfUs) {
    const frame = nodes.get(id)?.callFrame;
    if (!frame) continue;
    const ms = us / 1000;
    total += ms;
    const special = frame.functionName.startsWith("(") ? frame.functionName : undefined;
    const origin = special
      ? { group: special, where: "" }
      : (resolver(frame.url, frame.lineNumber, frame.columnNumber) ??
        defaultResolver(frame.url, frame.lineNumber, frame.columnNumber) ?? {
          group: "(native)",
          where: "",
        });
    byGroup.set(origin.group, (byGroup.get(origin.group) ?? 0) + ms);
    const name = frame.functionName || "(anonymous)";
    const key = `${name}@${origin.where}`;
    const entry = byFunction.get(key) ?? { name, where: origin.where, group: origin.group, ms: 0 };
    entry.ms += ms;
    byFunction.set(key, entry);
  }
  return {
    totalMs: total,
    byGroup: [...byGroup].map(([group, ms]) => ({ group, ms })).sort((a, b) => b.ms - a.ms),
    byFunction: [...byFunction.values()].sort((a, b) => b.ms - a.ms),
  };
}

export function formatSummary(title: string, summary: ProfileSummary, top = 20): string {
  const pct = (ms: number) => `${((ms / summary.totalMs) * 100).toFixed(1)}%`;
  const lines = [
    `## ${title}: ${summary.totalMs.toFixed(0)} ms sampled`,
    "",
    "self time by package:",
  ];
  for (const { group, ms } of summary.byGroup.slice(0, top)) {
    lines.push(`  ${ms.toFixed(1).padStart(8)} ms  ${pct(ms).padStart(6)}  ${group}`);
  }
  lines.push("", "self time by function:");
  for (const fn of summary.byFunction.slice(0, top)) {
    lines.push(
      `  ${fn.ms.toFixed(1).padStart(8)} ms  ${pct(fn.ms).padStart(6)}  ${fn.name}  (${fn.where || fn.group})`,
    );
  }
  return lines.join("\n");
}
