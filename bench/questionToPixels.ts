// Agent's call to pixels: from an agent calling plangate's MCP tool (ask_user_question for the
// generic flow, review_plan for the plan card) to the frame that paints its card in Chromium.
//
// Method: the real server (BenchServer → createServer, the CLI's code path) runs in its own
// process; the benchmark is the agent, with the official MCP SDK client over Streamable HTTP
// on loopback. The page is the production build on the agent's session. Stages, all on this
// machine's clock (timeOrigin + now in node and in the page; the page–node offset is printed):
//   call      the client's callTool, just before the request is sent
//   received  the server's HTTP server emits the POST (stamped in the host process)
//   written   the question's entry `at` (the server's Date.now(), 1 ms resolution)
//   frame     the question frame reaches the page's socket (first listener)
//   DOM       a MutationObserver sees the `.qcard` element
//   painted   Element Timing's renderTime of the card's text (the frame that painted it);
//             when Chromium reports none, the first task after the next animation frame
// Each call is then cancelled by the agent (an abort clears the card without the W12 notice)
// and a random 40–100 ms pause puts the next call at a random point of the display frame.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Browser } from "playwright-core";
import type { Figure } from "./figures.ts";
import { genericQuestion, SMALL_PLAN } from "./fixtures/questions.ts";
import { BenchServer } from "./lib/benchServer.ts";
import { launchChromium } from "./lib/browser.ts";
import { buildPage } from "./lib/build.ts";
import type { CardRecord, FrameRecord } from "./lib/pageProbe.ts";
import {
  clockOffset,
  latencyFigure,
  type OpenedPage,
  openSessionPage,
  sleep,
} from "./lib/session.ts";

const QUESTIONS_PER_FLOW = Number(process.env.BENCH_QUESTIONS ?? 60);
const WARMUP_PER_FLOW = 5;
export const AGENT = "bench-agent";

type Flow = "generic" | "plan";

interface Sample {
  flow: Flow;
  toReceived: number;
  receivedToWritten: number;
  writtenToFrame: number;
  toolFrameToQuestionFrame?: number;
  frameToDom: number;
  domToPainted: number;
  toPainted: number;
  elementTiming: boolean;
}

const now = () => performance.timeOrigin + performance.now();

export function mcpCallOf(flow: Flow, tag: string) {
  return flow === "generic"
    ? { name: "ask_user_question", arguments: { questions: genericQuestion(tag) } }
    : {
        name: "review_plan",
        arguments: { plan: SMALL_PLAN.replace("# Plan:", `# Plan (${tag}):`) },
      };
}

export async function connectAgent(server: BenchServer): Promise<Client> {
  const client = new Client({ name: AGENT, version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.origin}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${server.token}` } },
  });
  await client.connect(transport);
  return client;
}

async function until(check: () => Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

/** Asks one question of the flow and waits until its card shows; the call is left to cancel. */
export async function askUntilShown(
  agent: Client,
  events: OpenedPage["events"],
  flow: Flow,
  tag: string,
): Promise<AbortController> {
  const shown = events.next(
    (event) => event.type === "card" && (event.label ?? "").includes(`(${tag})`),
    10_000,
    tag,
  );
  const call = new AbortController();
  void agent
    .callTool(mcpCallOf(flow, tag), undefined, { signal: call.signal, timeout: 600_000 })
    .catch(() => {});
  await shown;
  return call;
}

/**
 * The agent's session, made by its first call, opened in a page once that question waits; the
 * call is then cancelled, so the page starts with a card that came and went.
 */
export async function openAgentSession(
  browser: Browser,
  server: BenchServer,
  agent: Client,
): Promise<OpenedPage & { sessionId: string }> {
  const first = new AbortController();
  void agent
    .callTool(mcpCallOf("generic", "first"), undefined, { signal: first.signal, timeout: 600_000 })
    .catch(() => {});
  let sessionId: string | undefined;
  await until(async () => {
    sessionId = (await server.sessionByModel(`mcp/${AGENT}`)).sessionId;
    return sessionId !== undefined;
  }, "the agent's session");
  const session = sessionId as string;
  await until(
    async () =>
      (await server.call<{ count: number }>({ cmd: "pendingCount", sessionId: session })).count > 0,
    "the first question",
  );
  const opened = await openSessionPage(browser, server, session);
  first.abort();
  return { ...opened, sessionId: session };
}

export async function run(): Promise<Figure[]> {
  const { outDir } = await buildPage();
  // BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=…" profiles the server's side.
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
  const server = new BenchServer({ distDir: outDir, nodeArgs });
  const browser = await launchChromium();
  let client: Client | undefined;
  try {
    await server.start();
    client = await connectAgent(server);
    const agent = client;
    const { sessionId: session, page, events } = await openAgentSession(browser, server, agent);
    const settled = () =>
      until(
        async () =>
          (await server.call<{ count: number }>({ cmd: "pendingCount", sessionId: session }))
            .count === 0,
        "the cancelled call to clear",
      );
    await settled();

    const samples: Sample[] = [];
    const total = WARMUP_PER_FLOW + QUESTIONS_PER_FLOW;
    for (let i = 0; i < total * 2; i++) {
      const flow: Flow = i % 2 === 0 ? "generic" : "plan";
      const tag = `q${i}`;
      const shown = events.next(
        (event) => event.type === "card" && (event.label ?? "").includes(`(${tag})`),
        15_000,
        `the card of ${tag}`,
      );
      const controller = new AbortController();
      const called = now();
      void agent
        .callTool(mcpCallOf(flow, tag), undefined, { signal: controller.signal, timeout: 600_000 })
        .catch(() => {});
      const { index } = await shown;
      // Element Timing is delivered after the frame; give it a moment.
      await page
        .waitForFunction((i) => window.__bench.cards[i]?.rendered !== undefined, index, {
          timeout: 300,
          polling: 20,
        })
        .catch(() => {});
      const { card, frames } = await page.evaluate(
        ({ index, since }) => ({
          card: window.__bench.cards[index] as CardRecord,
          frames: window.__bench.frames.filter((f) => f.arrival >= since) as FrameRecord[],
        }),
        { index, since: called - 50 },
      );
      const { arrivals } = await server.mcpArrivals(called - 5);
      controller.abort();
      const questionFrame = frames.find((f) => f.kind === "interaction.requested");
      const toolFrame = frames.find((f) => f.kind === "tool.call");
      const received = arrivals[0];
      const painted = card.rendered ?? card.afterPaint;
      if (!questionFrame?.at || received === undefined || painted === undefined) {
        throw new Error(
          `incomplete records for ${tag}: ${JSON.stringify({ card, frames, arrivals })}`,
        );
      }
      if (i >= WARMUP_PER_FLOW * 2) {
        samples.push({
          flow,
          toReceived: received - called,
          receivedToWritten: questionFrame.at - received,
          writtenToFrame: questionFrame.arrival - questionFrame.at,
          ...(toolFrame
            ? { toolFrameToQuestionFrame: questionFrame.arrival - toolFrame.arrival }
            : {}),
          frameToDom: card.appeared - questionFrame.arrival,
          domToPainted: painted - card.appeared,
          toPainted: painted - called,
          elementTiming: card.rendered !== undefined,
        });
      }
      await settled();
      await sleep(40 + Math.random() * 60);
    }
    const offset = await clockOffset(page);
    const of = (flow: Flow, pick: (s: Sample) => number | undefined) =>
      samples
        .filter((s) => s.flow === flow)
        .map(pick)
        .filter((v): v is number => v !== undefined);
    const figures: Figure[] = [];
    for (const flow of ["generic", "plan"] as const) {
      const label =
        flow === "generic" ? "ask_user_question → card painted" : "review_plan → plan card painted";
      const timed = of(flow, (s) => (s.elementTiming ? 1 : undefined)).length;
      const note = `n=${QUESTIONS_PER_FLOW}; MCP SDK client on loopback; painted = Element Timing renderTime (${timed}/${QUESTIONS_PER_FLOW}), else the task after the next frame; page clock − Date.now ${offset.toFixed(2)} ms`;
      const painted = of(flow, (s) => s.toPainted);
      figures.push(
        latencyFigure(`agent call via MCP: ${label}`, painted, { value: 16.7, on: "median" }, note),
        latencyFigure(`agent call via MCP: ${label}`, painted, { value: 33, on: "p95" }, note),
        latencyFigure(
          `  ${flow}: call → server receives the POST`,
          of(flow, (s) => s.toReceived),
        ),
        latencyFigure(
          `  ${flow}: server receives → question entry written`,
          of(flow, (s) => s.receivedToWritten),
          undefined,
          "the entry's `at` has 1 ms resolution",
        ),
        latencyFigure(
          `  ${flow}: written → question frame in page`,
          of(flow, (s) => s.writtenToFrame),
        ),
        latencyFigure(
          `  ${flow}: tool-call frame → question frame in page`,
          of(flow, (s) => s.toolFrameToQuestionFrame),
          undefined,
          "0 when one batch message carries both",
        ),
        latencyFigure(
          `  ${flow}: question frame → card in DOM`,
          of(flow, (s) => s.frameToDom),
        ),
        latencyFigure(
          `  ${flow}: card in DOM → painted`,
          of(flow, (s) => s.domToPainted),
        ),
      );
    }
    return figures;
  } finally {
    await client?.close().catch(() => {});
    await browser.close();
    await server.stop();
  }
}
