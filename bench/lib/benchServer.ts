import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { waitForPrintedUrl } from "../../e2e/printedUrl.ts";
import type { AskUserQuestionItem, QuestionAnswers } from "../../src/protocol/index.ts";
import { tokenCookieName } from "../../src/server/http/auth.ts";
import { repoRoot } from "./build.ts";
import type { HostCommand, HostConfig, HostReply } from "./hostProtocol.ts";

export interface BenchServerOptions {
  distDir: string;
  graceMs?: number;
  deadlineMs?: number;
  /** Flags for the server's node, e.g. ["--cpu-prof", "--cpu-prof-dir=…"]. */
  nodeArgs?: string[];
  /** Runs before the server starts, e.g. to pre-write sessions into the database. */
  prepare?: (paths: { workspace: string; dbPath: string }) => void;
}

/**
 * The real plangate server (`createServer`) in its own process on 127.0.0.1:0, driven over
 * IPC: the same code path as the CLI, plus a way to ask questions on cue.
 */
export class BenchServer {
  readonly dir: string;
  readonly workspace: string;
  readonly dbPath: string;
  url = "";
  origin = "";
  token = "";
  private child?: ChildProcess;
  private output = "";
  private nextId = 0;
  private readonly waiting = new Map<number, (reply: HostReply) => void>();

  constructor(private readonly options: BenchServerOptions) {
    this.dir = mkdtempSync(join(tmpdir(), "plangate-bench-"));
    this.workspace = join(this.dir, "workspace");
    this.dbPath = join(this.workspace, ".zcode", "plangate.db");
    mkdirSync(this.workspace, { recursive: true });
    writeFileSync(join(this.workspace, "README.md"), "# Benchmark workspace\n");
  }

  get wsUrl(): string {
    return `${this.origin.replace(/^http/, "ws")}/ws`;
  }

  /** What a browser on the page sends with the WebSocket upgrade. */
  get browserHeaders(): Record<string, string> {
    const port = Number(new URL(this.origin).port);
    return { origin: this.origin, cookie: `${tokenCookieName(port)}=${this.token}` };
  }

  async start(): Promise<void> {
    this.options.prepare?.({ workspace: this.workspace, dbPath: this.dbPath });
    const config: HostConfig = {
      workspace: this.workspace,
      dbPath: this.dbPath,
      distDir: this.options.distDir,
      token: randomBytes(32).toString("hex"),
      graceMs: this.options.graceMs ?? 60_000,
      deadlineMs: this.options.deadlineMs ?? 300_000,
    };
    const child = spawn(
      process.execPath,
      [
        ...(this.options.nodeArgs ?? []),
        "--import",
        "tsx",
        join(repoRoot, "bench/lib/serverHost.ts"),
      ],
      {
        cwd: repoRoot,
        stdio: ["ignore", "pipe", "pipe", "ipc"],
        env: { ...process.env, PLANGATE_BENCH_HOST: JSON.stringify(config) },
      },
    );
    this.child = child;
    child.on("message", (reply: HostReply) => {
      this.waiting.get(reply.id)?.(reply);
      this.waiting.delete(reply.id);
    });
    const printed = await waitForPrintedUrl(child, (text) => {
      this.output += text;
    });
    this.url = printed.url;
    this.origin = printed.origin;
    this.token = printed.token;
  }

  call<T = unknown>(command: HostCommand): Promise<T> {
    const child = this.child;
    if (!child?.connected) return Promise.reject(new Error("the bench server is not running"));
    const id = ++this.nextId;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, (reply) =>
        reply.ok ? resolve(reply.result as T) : reject(new Error(reply.error)),
      );
      child.send({ id, command });
    });
  }

  createSession(title = "bench"): Promise<string> {
    return this.call<{ sessionId: string }>({ cmd: "createSession", title }).then(
      (r) => r.sessionId,
    );
  }

  ask(sessionId: string, questions: AskUserQuestionItem[], toolName = "AskUserQuestion") {
    return this.call<{ interactionId: string }>({ cmd: "ask", sessionId, toolName, questions });
  }

  answerHead(sessionId: string, answers?: QuestionAnswers) {
    return this.call<{ ok: boolean }>({ cmd: "answerHead", sessionId, answers });
  }

  /** Clears the head card as an aborted tool call does (no "answered elsewhere" notice). */
  abortHead(sessionId: string) {
    return this.call<{ ok: boolean }>({ cmd: "abortHead", sessionId });
  }

  /** When POSTs to /mcp reached the server since `since` (timeOrigin + now ms). */
  mcpArrivals(since: number) {
    return this.call<{ arrivals: number[] }>({ cmd: "mcpArrivals", since });
  }

  sessionByModel(model: string) {
    return this.call<{ sessionId?: string }>({ cmd: "sessionByModel", model });
  }

  logs(): string {
    return this.output;
  }

  /** Closes the server politely (profiles are written on a clean exit), then removes its files. */
  async stop(): Promise<void> {
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((done) => child.once("exit", () => done()));
      const killer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await this.call({ cmd: "close" }).catch(() => child.kill("SIGTERM"));
      await exited;
      clearTimeout(killer);
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
