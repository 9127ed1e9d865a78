// A child process that runs plangate's real server (`createServer`, what the CLI starts) and
// takes commands over the IPC channel, so a benchmark can put questions on the server's
// internals without sharing its event loop. Started by `BenchServer` in ./benchServer.ts.
import { Server as HttpServer } from "node:http";
import { Server as NetServer } from "node:net";
import { writeHeapSnapshot } from "node:v8";
import type { AskUserQuestionItem, QuestionAnswers } from "../../src/protocol/index.ts";
import { createServer } from "../../src/server/http/server.ts";
import type { HostCommand, HostConfig, HostReply } from "./hostProtocol.ts";

// When each POST to /mcp reached the server (clock: timeOrigin + now, as the bench and the page
// read it): the first stage of an agent's call. Stamped on the HTTP server's request event,
// before Fastify sees it.
const mcpArrivals: number[] = [];
const emit = HttpServer.prototype.emit;
HttpServer.prototype.emit = function (this: HttpServer, event: string, ...args: unknown[]) {
  if (event === "request") {
    const request = args[0] as { method?: string; url?: string };
    if (request.method === "POST" && request.url?.startsWith("/mcp")) {
      mcpArrivals.push(performance.timeOrigin + performance.now());
      if (mcpArrivals.length > 1000) mcpArrivals.splice(0, 500);
    }
  }
  return (emit as (event: string, ...args: unknown[]) => boolean).call(this, event, ...args);
} as typeof HttpServer.prototype.emit;

// Experiment knob: BENCH_LISTEN_BACKLOG=n listens with that accept backlog (the product's is
// 4,096, Node's default 511); a burst of connections beyond it is dropped by the kernel and
// retried by the client a second or more later (TcpExtListenOverflows).
const backlog = Number(process.env.BENCH_LISTEN_BACKLOG ?? 0);
if (backlog > 0) {
  const listen = NetServer.prototype.listen;
  NetServer.prototype.listen = function (this: NetServer, ...args: unknown[]) {
    const [first] = args;
    if (first && typeof first === "object" && !Array.isArray(first)) {
      args[0] = { ...(first as object), backlog };
    }
    return (listen as (...a: unknown[]) => NetServer).apply(this, args);
  } as typeof NetServer.prototype.listen;
}

const config = JSON.parse(process.env.PLANGATE_BENCH_HOST ?? "{}") as HostConfig;
const server = await createServer({
  workspace: config.workspace,
  dbPath: config.dbPath,
  distDir: config.distDir,
  token: config.token,
  port: 0,
  model: config.model ?? "scripted:demo",
  timings: { graceMs: config.graceMs, deadlineMs: config.deadlineMs },
});
let nextCall = 0;
// Each question's signal, so the bench can clear a card the way an aborted tool call does.
const controllers = new Map<string, AbortController>();

function ask(sessionId: string, questions: AskUserQuestionItem[], toolName: string): string {
  const toolCallId = `bench_call_${++nextCall}`;
  const controller = new AbortController();
  void server.interactions
    .askQuestions(sessionId, { toolName, toolCallId, questions }, controller.signal)
    .catch((error: unknown) => {
      if (!controller.signal.aborted) console.error("bench ask failed:", error);
    });
  // askQuestions appends the request synchronously, so it is the tail of the queue now.
  const tail = server.interactions.pending(sessionId).at(-1);
  if (!tail || tail.request.toolCallId !== toolCallId)
    throw new Error("the question was not queued");
  controllers.set(tail.request.interactionId, controller);
  return tail.request.interactionId;
}

async function handle(command: HostCommand): Promise<unknown> {
  switch (command.cmd) {
    case "createSession":
      return { sessionId: server.sessions.create({ title: command.title }).id };
    case "ask":
      return { interactionId: ask(command.sessionId, command.questions, command.toolName) };
    case "answerHead": {
      const head = server.interactions.pending(command.sessionId)[0];
      if (!head) return { ok: false, message: "nothing pending" };
      const answers: QuestionAnswers = command.answers ?? {};
      return server.interactions.answer(head.request.interactionId, answers);
    }
    case "abortHead": {
      // An abort is not a person acting elsewhere, so the page shows no W12 notice before
      // the next card (an answer from here would hold the next card behind it for 6 s).
      const head = server.interactions.pending(command.sessionId)[0];
      if (!head) return { ok: false, message: "nothing pending" };
      controllers.get(head.request.interactionId)?.abort();
      controllers.delete(head.request.interactionId);
      return { ok: true };
    }
    case "mcpArrivals":
      return { arrivals: mcpArrivals.filter((at) => at >= command.since) };
    case "sessionByModel": {
      const found = server.sessions.summaries().find((s) => s.model === command.model);
      return { sessionId: found?.id };
    }
    case "pendingCount":
      return { count: server.interactions.pendingCount(command.sessionId) };
    case "usage":
      // With --expose-gc, `gc: true` collects first, so heapUsed counts live objects only.
      if (command.gc) (globalThis as { gc?: () => void }).gc?.();
      return { memory: process.memoryUsage(), cpu: process.cpuUsage() };
    case "heapSnapshot":
      return { path: writeHeapSnapshot(command.path) };
    case "pendingTotal":
      return {
        count: server.sessions
          .summaries()
          .reduce((sum, s) => sum + server.interactions.pendingCount(s.id), 0),
      };
    case "cancelAllPending": {
      // As a person dismissing every waiting question: each call gets its "cancelled" result.
      let cancelled = 0;
      for (const { id } of server.sessions.summaries()) {
        for (const item of server.interactions.pending(id)) {
          if (server.interactions.cancel(item.request.interactionId).ok) cancelled += 1;
        }
      }
      return { cancelled };
    }
    case "close":
      await server.close();
      setImmediate(() => process.exit(0));
      return { closed: true };
  }
}

process.on("message", (message: { id: number; command: HostCommand }) => {
  handle(message.command).then(
    (result) => process.send?.({ id: message.id, ok: true, result } satisfies HostReply),
    (error: unknown) =>
      process.send?.({
        id: message.id,
        ok: false,
        error: error instanceof Error ? error.message : String(error),
      } satisfies HostReply),
  );
});
process.on("disconnect", () => {
  void server.close().finally(() => process.exit(0));
});
console.log(server.url);
