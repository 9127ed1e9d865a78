import { chromium } from "playwright";
import { readFileSync } from "node:fs";
const [, , snippetFile, pageIdx = "0"] = process.argv;
const browser = await chromium.connectOverCDP("http://127.0.0.1:9333");
const ctx = browser.contexts()[0];
let pages = ctx.pages();
let page = pages[Number(pageIdx)] ?? (await ctx.newPage());
const logs: string[] = [];
const hook = (p: any, tag: string) => {
  p.on("console", (m: any) => { if (m.type() === "error" || m.type() === "warning") logs.push(`[${tag} console.${m.type()}] ${m.text()}`); });
  p.on("pageerror", (e: any) => logs.push(`[${tag} pageerror] ${e.message}`));
};
for (const [i, p] of ctx.pages().entries()) hook(p, "p" + i);
const code = readFileSync(snippetFile, "utf8");
const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor;
const fn = new AsyncFunction("page", "ctx", "browser", "log", "shot", code);
const shot = async (name: string, p = page) => { await p.screenshot({ path: `/tmp/qa-ui/${name}.png` }); console.log("shot", name); };
try {
  await fn(page, ctx, browser, (...a: any[]) => console.log(...a), shot);
} catch (e) { console.log("SNIPPET ERROR", (e as Error).message); }
for (const l of logs) console.log(l);
await browser.close().catch(() => {}); // disconnect only for CDP
process.exit(0);
