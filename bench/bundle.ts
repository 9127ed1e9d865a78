// Bundle: what the page loads first (index.html's script, modulepreloads and stylesheets,
// plus their static imports), raw, gzip and as served (the build's .br copies) before the
// first card, and which dependencies make it up.
import { existsSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { gzipSync } from "node:zlib";
import { transform } from "esbuild";
import type { Rolldown } from "vite";
import type { Figure } from "./figures.ts";
import { buildPage, repoRoot } from "./lib/build.ts";

const KB = 1000;
const GOAL_GZIP_KB = 130;
/** Issue 15: first load ≤ 100 KB transferred before the first card. */
const GOAL_BEFORE_CARD_KB = 100;
/** App folders below this are left out of the table. */
const SMALL_GROUP_BYTES = 2 * KB;

const gzipSize = (data: Buffer | string) => gzipSync(data, { level: 9 }).length;

/** `node_modules/@scope/pkg/...` → `@scope/pkg`; our own files by folder. */
export function moduleGroup(id: string): string {
  const clean = id.replace(/^\0/, "").replace(/\?.*$/, "");
  const marker = "/node_modules/";
  const at = clean.lastIndexOf(marker);
  if (at >= 0) {
    const parts = clean.slice(at + marker.length).split("/");
    return parts[0]?.startsWith("@") ? `${parts[0]}/${parts[1]}` : (parts[0] ?? clean);
  }
  // The page's compiled frame schemas (scripts/serverFrameProgram.ts) are app code.
  if (clean.startsWith("virtual:server-frame-program")) return "(app) src/protocol";
  if (!clean.startsWith("/")) return "(bundler runtime)";
  const path = relative(repoRoot, clean);
  if (path.startsWith("src/web/")) return `(app) src/web/${path.split("/")[2]}`;
  if (path.startsWith("src/protocol/")) return "(app) src/protocol";
  if (path.startsWith("locales/")) return "(app) locales";
  return `(app) ${path}`;
}

/** Files the browser fetches before the app runs, from index.html and static imports. */
export function firstLoadFiles(html: string, output: Rolldown.RolldownOutput): string[] {
  const files = new Set<string>();
  const attribute = /<(script|link)\b[^>]*>/g;
  for (const [tag, kind] of html.matchAll(attribute)) {
    const src = /\b(?:src|href)="\/?([^"]+)"/.exec(tag)?.[1];
    if (!src) continue;
    const rel = /\brel="([^"]+)"/.exec(tag)?.[1];
    if (kind === "script" && /type="module"/.test(tag)) files.add(src);
    if (kind === "link" && (rel === "modulepreload" || rel === "stylesheet")) files.add(src);
  }
  const chunks = new Map(
    output.output
      .filter((item): item is Rolldown.OutputChunk => item.type === "chunk")
      .map((chunk) => [chunk.fileName, chunk]),
  );
  const queue = [...files];
  while (queue.length > 0) {
    const chunk = chunks.get(queue.pop()!);
    for (const imported of chunk?.imports ?? []) {
      if (!files.has(imported)) {
        files.add(imported);
        queue.push(imported);
      }
    }
    for (const css of chunk?.viteMetadata?.importedCss ?? []) files.add(css);
  }
  return [...files];
}

function readManifest(dir: string): { dependencies?: Record<string, string> } | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  } catch {
    return undefined;
  }
}

/**
 * Names each bundled package after the direct dependency (package.json) that pulls it in,
 * e.g. micromark → react-markdown; a package two of them need is "shared: a + b".
 */
export function directOwners(root: string): (pkg: string) => string {
  const direct = Object.keys(readManifest(root)?.dependencies ?? {});
  const closures = new Map<string, Set<string>>();
  for (const name of direct) {
    const seen = new Set<string>([name]);
    const queue = [name];
    while (queue.length > 0) {
      const current = queue.pop()!;
      const manifest = readManifest(join(root, "node_modules", current));
      for (const dep of Object.keys(manifest?.dependencies ?? {})) {
        if (!seen.has(dep)) {
          seen.add(dep);
          queue.push(dep);
        }
      }
    }
    closures.set(name, seen);
  }
  return (pkg) => {
    if (pkg.startsWith("(")) return pkg;
    if (closures.has(pkg)) return pkg;
    const owners = direct.filter((name) => closures.get(name)?.has(pkg));
    if (owners.length === 0) return pkg;
    return owners.length === 1 ? owners[0]! : `shared: ${owners.join(" + ")}`;
  };
}

interface GroupSize {
  group: string;
  minified: number;
  gzip: number;
}

/** Minifies and gzips each group's rendered code on its own: an estimate of its share. */
async function groupSizes(
  chunks: Rolldown.OutputChunk[],
  groupOf: (id: string) => string,
): Promise<GroupSize[]> {
  const code = new Map<string, string[]>();
  for (const chunk of chunks) {
    for (const [id, module] of Object.entries(chunk.modules)) {
      if (module.renderedLength === 0 || !module.code) continue;
      const group = groupOf(id);
      code.set(group, [...(code.get(group) ?? []), module.code]);
    }
  }
  const sizes: GroupSize[] = [];
  for (const [group, parts] of code) {
    const joined = parts.join("\n");
    const minified = (await transform(joined, { minify: true, loader: "js" })).code;
    sizes.push({ group, minified: Buffer.byteLength(minified), gzip: gzipSize(minified) });
  }
  return sizes.sort((a, b) => b.gzip - a.gzip);
}

/** Bytes the server sends for one file of dist to a browser that accepts brotli. */
function servedSize(outDir: string, file: string): number {
  const path = join(outDir, file);
  return existsSync(`${path}.br`) ? statSync(`${path}.br`).size : statSync(path).size;
}

/** A lazy chunk with what it pulls in that the first load does not already hold. */
function lazyFiles(
  output: Rolldown.RolldownOutput,
  files: readonly string[],
  name: RegExp,
): Set<string> {
  const chunks = output.output.filter(
    (item): item is Rolldown.OutputChunk =>
      item.type === "chunk" && !files.includes(item.fileName) && name.test(item.fileName),
  );
  const found = new Set<string>();
  for (const chunk of chunks) {
    found.add(chunk.fileName);
    for (const imported of chunk.imports) if (!files.includes(imported)) found.add(imported);
    for (const css of chunk.viteMetadata?.importedCss ?? []) found.add(css);
  }
  // The imported chunks' own stylesheets come with them.
  for (const item of output.output) {
    if (item.type === "chunk" && found.has(item.fileName)) {
      for (const css of item.viteMetadata?.importedCss ?? []) found.add(css);
    }
  }
  return found;
}

/**
 * Issue 15: what crosses the wire before the first card, compressed as served: the page, its
 * entry chunks and stylesheets; and, apart, what a card of another kind adds on mount: the
 * markdown chunks (a question with detail), and the plan-review card's chunk with them. The lazy pages and card chunks are fetched only once the first
 * screen is painted (main.tsx, afterFirstScreen), so they never come before a first card.
 */
export function transferredBeforeFirstCard(
  outDir: string,
  files: readonly string[],
  output: Rolldown.RolldownOutput,
): {
  plain: number;
  markdown: number;
  plan: number;
  detail: string;
  markdownDetail: string;
  planDetail: string;
} {
  // main.tsx fetches the active language's copy before it renders: count the larger one.
  const locales = output.output
    .filter(
      (item): item is Rolldown.OutputChunk =>
        item.type === "chunk" && /^assets\/locale\./.test(item.fileName),
    )
    .map((chunk) => chunk.fileName)
    .sort((a, b) => servedSize(outDir, b) - servedSize(outDir, a));
  const beforeCard = [...files, ...locales.slice(0, 1)];
  const sum = (names: Iterable<string>) =>
    [...names].reduce((total, file) => total + servedSize(outDir, file), 0);
  const plain = servedSize(outDir, "index.html") + sum(beforeCard);
  const markdownFiles = lazyFiles(output, files, /Markdown/);
  // The plan card's strings (the plan namespace) come with it: the larger language's copy.
  const planCopy = output.output
    .filter(
      (item): item is Rolldown.OutputChunk =>
        item.type === "chunk" && /^assets\/copy\.[^.]+\.plan-/.test(item.fileName),
    )
    .map((chunk) => chunk.fileName)
    .sort((a, b) => servedSize(outDir, b) - servedSize(outDir, a))
    .slice(0, 1);
  const planFiles = new Set([
    ...markdownFiles,
    ...lazyFiles(output, files, /PlanReviewPanel/),
    ...planCopy,
  ]);
  const list = (names: Iterable<string>) =>
    [...names]
      .map(
        (file) => `${file.replace(/^assets\//, "")} ${(servedSize(outDir, file) / KB).toFixed(1)}`,
      )
      .join(", ");
  return {
    plain,
    markdown: sum(markdownFiles),
    plan: sum(planFiles),
    detail: list(beforeCard),
    markdownDetail: list(markdownFiles),
    planDetail: list(planFiles),
  };
}

export async function run(): Promise<Figure[]> {
  const { outDir, output } = await buildPage();
  const html = readFileSync(join(outDir, "index.html"), "utf8");
  const files = firstLoadFiles(html, output);
  let jsRaw = 0;
  let jsGzip = 0;
  let cssRaw = 0;
  let cssGzip = 0;
  for (const file of files) {
    const data = readFileSync(join(outDir, file));
    if (file.endsWith(".css")) {
      cssRaw += data.length;
      cssGzip += gzipSize(data);
    } else {
      jsRaw += data.length;
      jsGzip += gzipSize(data);
    }
  }
  const htmlGzip = gzipSize(html);
  const firstChunks = output.output.filter(
    (item): item is Rolldown.OutputChunk => item.type === "chunk" && files.includes(item.fileName),
  );
  const owner = directOwners(repoRoot);
  const byDirect = await groupSizes(firstChunks, (id) => {
    const group = moduleGroup(id);
    return group.startsWith("(app)") ? "(app code)" : owner(group);
  });
  const packages = await groupSizes(firstChunks, moduleGroup);
  const appGroups = packages.filter((g) => g.group.startsWith("(app)"));
  const biggestPackages = packages
    .filter((g) => !g.group.startsWith("("))
    .slice(0, 6)
    .map((g) => `${g.group} ${(g.gzip / KB).toFixed(1)}`)
    .join(", ");
  const allChunks = output.output.filter((item) => item.type === "chunk").length;

  const kb = (bytes: number) => bytes / KB;
  const beforeCard = transferredBeforeFirstCard(outDir, files, output);
  console.log(
    `bundle: transferred before the first card, as served (br): ${kb(beforeCard.plain).toFixed(1)} kB; ` +
      `with markdown in the card: ${kb(beforeCard.plain + beforeCard.markdown).toFixed(1)} kB; ` +
      `plan card: ${kb(beforeCard.plain + beforeCard.plan).toFixed(1)} kB`,
  );
  const figures: Figure[] = [
    {
      name: "bundle: transferred before the first card (as served)",
      unit: "kB",
      value: kb(beforeCard.plain),
      goal: GOAL_BEFORE_CARD_KB,
      goalKind: "max",
      note: `index.html + the entry's file(s) and the larger locale chunk, each as the server sends it to a browser accepting br (the .br copy in dist, or the file when none); ${beforeCard.detail}`,
    },
    {
      name: "bundle: transferred before a first card that shows markdown",
      unit: "kB",
      value: kb(beforeCard.plain + beforeCard.markdown),
      goal: GOAL_BEFORE_CARD_KB,
      goalKind: "max",
      note: `adds ${beforeCard.markdownDetail}, fetched when the first Markdown mounts (a plan review, a question with detail)`,
    },
    {
      name: "bundle: transferred before a first plan-review card",
      unit: "kB",
      value: kb(beforeCard.plain + beforeCard.plan),
      goal: GOAL_BEFORE_CARD_KB,
      goalKind: "max",
      note: `adds ${beforeCard.planDetail}, fetched together when a plan card mounts before the first screen's idle preload`,
    },
    {
      name: "bundle: first-load JS+CSS gzip",
      unit: "kB",
      value: kb(jsGzip + cssGzip),
      goal: GOAL_GZIP_KB,
      goalKind: "max",
      note: `${files.length} file(s) of ${allChunks} chunk(s); gzip -9; index.html ${kb(htmlGzip).toFixed(1)} kB more`,
    },
    { name: "bundle: first-load JS gzip", unit: "kB", value: kb(jsGzip), goalKind: "max" },
    { name: "bundle: first-load CSS gzip", unit: "kB", value: kb(cssGzip), goalKind: "max" },
    {
      name: "bundle: first-load JS+CSS raw",
      unit: "kB",
      value: kb(jsRaw + cssRaw),
      goalKind: "max",
      note: "before compression; the server sends the build's .br/.gz copies",
    },
  ];
  for (const group of byDirect) {
    figures.push({
      name: `bundle dep: ${group.group}`,
      unit: "kB gz",
      value: kb(group.gzip),
      goalKind: "max",
      note: `${kb(group.minified).toFixed(1)} kB min, with what it pulls in`,
    });
  }
  const bigApp = appGroups.filter((g) => g.gzip >= SMALL_GROUP_BYTES);
  for (const group of bigApp) {
    figures.push({
      name: `bundle app: ${group.group.replace("(app) ", "")}`,
      unit: "kB gz",
      value: kb(group.gzip),
      goalKind: "max",
      note: `${kb(group.minified).toFixed(1)} kB min`,
    });
  }
  figures.push({
    name: "bundle: largest packages",
    unit: "",
    goalKind: "max",
    note: `kB gz each: ${biggestPackages}`,
  });
  return figures;
}
