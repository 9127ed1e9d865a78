// Where a burst of MCP calls waits: `npx tsx bench/experiments/mcpIntake.ts [calls] [agents]`.
// Every 500 ms: TCP connections established to the server, calls whose response headers came
// back (the server took the request and opened its SSE stream), and questions pending in the
// server, and the server's CPU time per call once every call has its headers. Connections lagging the calls point at the senders or the kernel; headers lagging
// connections at the server's HTTP intake; pending lagging headers at the tool call itself.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RawMcpClient } from "../../src/server/mcp/rawMcpClient.ts";
import { genericQuestion } from "../fixtures/questions.ts";
import { BenchServer } from "../lib/benchServer.ts";
import { buildPage } from "../lib/build.ts";
import { type CpuProfile, formatSummary, summariseProfile } from "../lib/cpuProfile.ts";
import { sleep } from "../lib/session.ts";

const calls = Number(process.argv[2] ?? 400);
const agentCount = Number(process.argv[3] ?? 20);

function established(port: number): number {
  const out = execFileSync("ss", ["-Htn", "state", "established", `( dport = :${port} )`]);
  return out.toString().split("\n").filter(Boolean).length;
}

const { outDir } = await buildPage();
// MCP_INTAKE_PROFILE=1: the server's CPU profile over the burst only (self time, and the
// inclusive time of the functions it went through).
const profileDir = process.env.MCP_INTAKE_PROFILE
  ? mkdtempSync(join(tmpdir(), "plangate-intake-"))
  : undefined;
const server = new BenchServer({
  distDir: outDir,
  graceMs: 120_000,
  // MCP_INTAKE_DEADLINE_MS: a deadline past the burst keeps every call pending for the heap
  // snapshot, so the per-call figure does not move with how many heads auto-continued.
  deadlineMs: Number(process.env.MCP_INTAKE_DEADLINE_MS ?? 1000),
  ...(profileDir ? { nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] } : {}),
});
await server.start();
const port = Number(new URL(server.origin).port);
const endpoint = `${server.origin}/mcp`;
const agents: RawMcpClient[] = [];
for (let a = 0; a < agentCount; a++) {
  const agent = new RawMcpClient(endpoint, server.token);
  await agent.initialize(`intake-${a}`);
  agents.push(agent);
}
interface Usage {
  cpu: NodeJS.CpuUsage;
}
const cpuMs = async () => {
  const { cpu } = await server.call<Usage>({ cmd: "usage" });
  return (cpu.user + cpu.system) / 1000;
};
// MCP_INTAKE_HEAP=dir: heap snapshots of the server before the burst and with every call
// pending, for bench/experiments/heapDiff.py.
const heapDir = process.env.MCP_INTAKE_HEAP;
if (heapDir) await server.call({ cmd: "heapSnapshot", path: join(heapDir, "before.heapsnapshot") });
const cpuBefore = await cpuMs();
const controllers: AbortController[] = [];
let headers = 0;
const sent = performance.now();
for (let i = 0; i < calls; i++) {
  const agent = agents[i % agentCount] as RawMcpClient;
  const controller = new AbortController();
  controllers.push(controller);
  fetch(endpoint, {
    method: "POST",
    headers: agent.headers(),
    body: JSON.stringify(
      agent.request("tools/call", {
        name: "ask_user_question",
        arguments: { questions: genericQuestion(`intake ${i}`) },
      }),
    ),
    signal: controller.signal,
  })
    .then(() => {
      headers += 1;
    })
    .catch(() => undefined);
}
for (;;) {
  const pending = (await server.call<{ count: number }>({ cmd: "pendingTotal" })).count;
  const at = ((performance.now() - sent) / 1000).toFixed(1);
  console.log(`${at}s  tcp ${established(port)}  headers ${headers}  pending ${pending}`);
  // Headers come back before a call's work is done (the fast path answers them first).
  if ((headers >= calls && pending >= calls) || performance.now() - sent > 30_000) break;
  await sleep(500);
}
const used = (await cpuMs()) - cpuBefore;
if (heapDir) {
  const { count } = await server.call<{ count: number }>({ cmd: "pendingTotal" });
  await server.call({ cmd: "heapSnapshot", path: join(heapDir, "pending.heapsnapshot") });
  console.log(`heap snapshots in ${heapDir}: ${count} pending at the second`);
}
const burstMs = performance.now() - sent;
console.log(
  `server CPU ${used.toFixed(0)} ms for ${headers} calls: ${(used / headers).toFixed(2)} ms a call`,
);
for (const controller of controllers) controller.abort();
const stopping = performance.now();
await server.stop();
const stopMs = performance.now() - stopping;
if (profileDir) reportBurst(profileDir, burstMs, stopMs);
process.exit(0);

function reportBurst(dir: string, burstMs: number, stopMs: number): void {
  const file = readdirSync(dir)
    .filter((name) => name.endsWith(".cpuprofile"))
    .map((name) => join(dir, name))
    .sort((a, b) => statSync(b).size - statSync(a).size)[0];
  if (!file) return;
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const toUs = profile.endTime - stopMs * 1000;
  const window = { fromUs: toUs - burstMs * 1000, toUs };
  console.log(
    formatSummary("server, burst only (self)", summariseProfile(profile, undefined, window), 30),
  );
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const inclusive = new Map<string, number>();
  let time = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    time += profile.timeDeltas[i] ?? 0;
    if (time < window.fromUs || time > window.toUs) continue;
    const us = profile.timeDeltas[i + 1] ?? 0;
    const seen = new Set<string>();
    for (let id: number | undefined = profile.samples[i]; id !== undefined; id = parent.get(id)) {
      const frame = byId.get(id)?.callFrame;
      if (!frame || frame.functionName.startsWith("(")) continue;
      const where = frame.url.replace(/^.*\/(node_modules|src)\//, "$1/");
      const key = `${frame.functionName || "(anonymous)"}  ${where}:${frame.lineNumber + 1}`;
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + us);
    }
  }
  console.log("\ninclusive, our code and the SDK:");
  for (const [key, us] of [...inclusive].sort((a, b) => b[1] - a[1])) {
    if (!/src\/server|modelcontextprotocol|hono|fastify|better-sqlite3|zod/.test(key)) continue;
    console.log(`${(us / 1000).toFixed(0).padStart(7)} ms  ${key}`);
  }
}
