// Question to pixels: from the server writing `interaction.requested` (the entry's `at`) to
// the frame that paints its card in Chromium, for the generic flow and the plan card.
//
// Method: the real server runs in its own process (BenchServer → createServer, the CLI's
// code path); over IPC the benchmark calls the interaction registry's askQuestions, as the
// AskUserQuestion tool would. The page is the production build. In the page, a probe reads
// `at` off the event frame, a MutationObserver sees the `.qcard` element appear, and the next
// requestAnimationFrame takes `performance.timeOrigin + performance.now()`. Server and page
// share this machine's clock.
import type { Figure } from "./figures.ts";
import { genericQuestion, planReviewQuestion, SMALL_PLAN } from "./fixtures/questions.ts";
import { BenchServer } from "./lib/benchServer.ts";
import { launchChromium } from "./lib/browser.ts";
import { buildPage } from "./lib/build.ts";
import type { CardRecord, FrameRecord } from "./lib/pageProbe.ts";
import { clockOffset, latencyFigure, openSessionPage, sleep } from "./lib/session.ts";

const QUESTIONS_PER_FLOW = Number(process.env.BENCH_QUESTIONS ?? 200);
const WARMUP_PER_FLOW = 10;

interface Sample {
  flow: "generic" | "plan";
  /** Server write → page frame arrival → card in DOM → its frame (rAF) → after that frame. */
  toArrival: number;
  toAppeared: number;
  toPainted: number;
  toAfterPaint: number;
}

export async function run(): Promise<Figure[]> {
  const { outDir } = await buildPage();
  const server = new BenchServer({ distDir: outDir });
  const browser = await launchChromium();
  try {
    await server.start();
    const sessionId = await server.createSession("question to pixels");
    const { page, events } = await openSessionPage(browser, server, sessionId);
    const samples: Sample[] = [];
    const total = WARMUP_PER_FLOW + QUESTIONS_PER_FLOW;
    for (let i = 0; i < total * 2; i++) {
      const flow = i % 2 === 0 ? "generic" : "plan";
      const tag = `q${i}`;
      const questions =
        flow === "generic" ? genericQuestion(tag) : planReviewQuestion(tag, SMALL_PLAN);
      const shown = events.next(
        (event) => event.type === "card" && (event.label ?? "").includes(`(${tag})`),
        10_000,
        `the card of ${tag}`,
      );
      const { interactionId } = await server.ask(
        sessionId,
        questions,
        flow === "generic" ? "AskUserQuestion" : "ExitPlanMode",
      );
      const { index } = await shown;
      const { card, frame } = await page.evaluate(
        ({ index, interactionId }) => ({
          card: window.__bench.cards[index] as CardRecord,
          frame: window.__bench.frames.find(
            (f) => f.kind === "interaction.requested" && f.interactionId === interactionId,
          ) as FrameRecord | undefined,
        }),
        { index, interactionId },
      );
      if (!frame?.at || card.painted === undefined || card.afterPaint === undefined) {
        throw new Error(`incomplete records for ${tag}: ${JSON.stringify({ card, frame })}`);
      }
      if (i >= WARMUP_PER_FLOW * 2) {
        samples.push({
          flow,
          toArrival: frame.arrival - frame.at,
          toAppeared: card.appeared - frame.at,
          toPainted: card.painted - frame.at,
          toAfterPaint: card.afterPaint - frame.at,
        });
      }
      await server.abortHead(sessionId);
      // A random pause puts the next question at a random point of the display frame.
      await sleep(40 + Math.random() * 60);
    }
    const offset = await clockOffset(page);
    const of = (flow: Sample["flow"], key: keyof Omit<Sample, "flow">) =>
      samples.filter((s) => s.flow === flow).map((s) => s[key]);
    const note = `n=${QUESTIONS_PER_FLOW}; page clock − Date.now ${offset.toFixed(2)} ms`;
    return [
      latencyFigure(
        "q→pixels generic",
        of("generic", "toPainted"),
        { value: 20, on: "median" },
        note,
      ),
      latencyFigure("q→pixels generic", of("generic", "toPainted"), { value: 35, on: "p95" }, note),
      latencyFigure(
        "q→pixels plan card",
        of("plan", "toPainted"),
        { value: 20, on: "median" },
        note,
      ),
      latencyFigure("q→pixels plan card", of("plan", "toPainted"), { value: 35, on: "p95" }, note),
      latencyFigure("  generic: write → frame in page", of("generic", "toArrival")),
      latencyFigure("  generic: write → card in DOM", of("generic", "toAppeared")),
      latencyFigure("  generic: write → after paint", of("generic", "toAfterPaint")),
      latencyFigure("  plan: write → frame in page", of("plan", "toArrival")),
      latencyFigure("  plan: write → card in DOM", of("plan", "toAppeared")),
      latencyFigure("  plan: write → after paint", of("plan", "toAfterPaint")),
    ];
  } finally {
    await browser.close();
    await server.stop();
  }
}
