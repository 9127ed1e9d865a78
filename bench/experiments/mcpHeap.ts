// What one waiting MCP call keeps on the server's heap, by snapshot, not by heapUsed:
// `npx tsx bench/experiments/mcpHeap.ts [calls] [agents] [dir]` (2,000 calls from 50 agents).
// A warm-up call per agent first (the SDK, JIT code, each session's first entries), then a
// snapshot, then `calls` tools/call requests (ask_user_question and review_plan in turn) over
// loopback, a second snapshot once every one is pending, and bench/experiments/heapDiff.py and
// heapOwners.py over the pair. Deadlines far past the run: nothing resolves in between, so the
// figure does not move with the load. Snapshots force a full GC. MCP_HEAP_TASKS=1 makes every
// call as an MCP task (answered at once; nothing held but the task).
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RawMcpClient } from "../../src/server/mcp/rawMcpClient.ts";
import { genericQuestion, SMALL_PLAN } from "../fixtures/questions.ts";
import { BenchServer } from "../lib/benchServer.ts";
import { buildPage } from "../lib/build.ts";
import { sleep } from "../lib/session.ts";

const calls = Number(process.argv[2] ?? 2000);
const agentCount = Number(process.argv[3] ?? 50);
const dir = process.argv[4] ?? mkdtempSync(join(tmpdir(), "plangate-mcp-heap-"));
mkdirSync(dir, { recursive: true });

const task = process.env.MCP_HEAP_TASKS === "1" ? { task: { ttl: 600_000 } } : {};

function callOf(agent: RawMcpClient, i: number) {
  return i % 2 === 0
    ? agent.request("tools/call", {
        name: "ask_user_question",
        arguments: { questions: genericQuestion(`heap ${i}`) },
        ...task,
      })
    : agent.request("tools/call", {
        name: "review_plan",
        arguments: { plan: `${SMALL_PLAN}\n(heap ${i})\n` },
        ...task,
      });
}

const { outDir } = await buildPage();
const server = new BenchServer({ distDir: outDir, graceMs: 600_000, deadlineMs: 3_000_000 });
const controllers: AbortController[] = [];
const pending = async () => (await server.call<{ count: number }>({ cmd: "pendingTotal" })).count;
async function send(agents: RawMcpClient[], from: number, to: number): Promise<void> {
  for (let i = from; i < to; i++) {
    const agent = agents[i % agents.length] as RawMcpClient;
    const controller = new AbortController();
    controllers.push(controller);
    agent.post(callOf(agent, i), {}, { signal: controller.signal }).catch(() => undefined);
  }
  for (let waited = 0; (await pending()) < to; waited += 100) {
    if (waited > 120_000) throw new Error(`only ${await pending()} of ${to} calls pending`);
    await sleep(100);
  }
}
try {
  await server.start();
  const agents: RawMcpClient[] = [];
  for (let a = 0; a < agentCount; a++) {
    const agent = new RawMcpClient(`${server.origin}/mcp`, server.token);
    await agent.initialize(`heap-${a}`);
    agents.push(agent);
  }
  await send(agents, 0, agentCount);
  await sleep(500);
  const before = join(dir, "before.heapsnapshot");
  const after = join(dir, "pending.heapsnapshot");
  await server.call({ cmd: "heapSnapshot", path: before });
  await send(agents, agentCount, agentCount + calls);
  await sleep(500);
  await server.call({ cmd: "heapSnapshot", path: after });
  console.log(`${calls} calls pending between the snapshots in ${dir}\n`);
  for (const script of ["heapDiff.py", "heapOwners.py"]) {
    const args = [join(import.meta.dirname, script), before, after, String(calls)];
    if (script === "heapOwners.py") args.push("detail");
    console.log(execFileSync("python3", args, { encoding: "utf8", maxBuffer: 1 << 26 }));
  }
} finally {
  for (const controller of controllers) controller.abort();
  await server.stop();
}
process.exit(0);
