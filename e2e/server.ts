import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ServerClock } from "../src/server/testing/serverClock.ts";
import { waitForPrintedUrl } from "./printedUrl.ts";

const root = resolve(import.meta.dirname, "..");

export interface ServerOptions {
  /** A file in e2e/scenarios (without extension) or `demo`. */
  scenario: string;
  /** Extra CLI flags, e.g. ["--grace-ms", "2000"]. */
  args?: string[];
  /** Run on `--test-clock`: the server's time stands still until the test steps `clock`. */
  steppedClock?: boolean;
}

/** The real plangate CLI, started as a child process on a free port with its own workspace. */
export class PlangateServer {
  readonly workspace: string;
  readonly dbPath: string;
  url = "";
  origin = "";
  token = "";
  private child?: ChildProcess;
  private output = "";
  private readonly steppedClock: ServerClock | undefined;

  constructor(private readonly options: ServerOptions) {
    this.steppedClock = options.steppedClock ? new ServerClock() : undefined;
    this.workspace = mkdtempSync(join(tmpdir(), "plangate-e2e-"));
    this.dbPath = join(this.workspace, ".zcode", "plangate.db");
    writeFileSync(
      join(this.workspace, "README.md"),
      "# Sample project\n\nA tiny workspace the scripted model reads in end-to-end tests.\n",
    );
  }

  private modelRef(): string {
    const { scenario } = this.options;
    return scenario === "demo"
      ? "scripted:demo"
      : `scripted:${join(root, "e2e", "scenarios", `${scenario}.yaml`)}`;
  }

  /**
   * No --token: the CLI reads the workspace's stored token (W8), so a restart is reached by the
   * same URL, as it is for a person. `extraArgs` apply to this start only (e.g. --rotate-token).
   */
  async start(port = 0, extraArgs: string[] = []): Promise<void> {
    this.output = "";
    // What `npm start` runs: the bundled server, rebuilt first when its sources changed. Always
    // --no-build: `npm run e2e` builds the page once before the run, and a server rebuilding
    // dist/ mid-run would stall its own test and change the page under the others.
    const args = [
      join(root, "scripts/start.cjs"),
      "--no-build",
      "--port",
      String(port),
      "--workspace",
      this.workspace,
      "--db",
      this.dbPath,
      "--model",
      this.modelRef(),
      ...(this.options.args ?? []),
      ...(this.steppedClock?.args() ?? []),
      ...extraArgs,
    ];
    const child = spawn(process.execPath, args, {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe", ...(this.steppedClock ? ["ipc" as const] : [])],
    });
    this.child = child;
    this.steppedClock?.attach(child);
    const printed = await waitForPrintedUrl(child, (text) => {
      this.output += text;
    });
    this.url = printed.url;
    this.origin = printed.origin;
    this.token = printed.token;
  }

  /**
   * The server's time, stepped by the test (`steppedClock`). It carries over a restart; steps
   * while the server is down are time that passed while it was down.
   */
  get clock(): ServerClock {
    if (!this.steppedClock) throw new Error("this server runs on the real clock (steppedClock)");
    return this.steppedClock;
  }

  get port(): number {
    return Number(new URL(this.origin).port);
  }

  /** Ends the process the hard way (R6) or politely; resolves once it is gone. */
  async stop(signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((done) => {
      child.once("exit", () => done());
      child.kill(signal);
    });
  }

  /** Kills the server with SIGKILL and starts it again on the same port, database and stored token. */
  async restart(signal: NodeJS.Signals = "SIGKILL", extraArgs: string[] = []): Promise<void> {
    const port = this.port;
    await this.stop(signal);
    await this.start(port, extraArgs);
  }

  logs(): string {
    return this.output;
  }

  dispose(): void {
    rmSync(this.workspace, { recursive: true, force: true });
  }
}
