import { type ChildProcess, type StdioOptions, spawn } from "node:child_process";
import { resolve } from "node:path";

const root = resolve(import.meta.dirname, "../../..");

/** The real CLI as a child process, as `npm start` runs it. */
export class CliProcess {
  output = "";
  private constructor(readonly child: ChildProcess) {
    child.stdout?.on("data", (chunk: Buffer) => {
      this.output += chunk.toString();
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      this.output += chunk.toString();
    });
  }

  /**
   * `npm start` itself: the launcher runs the bundled server (rebuilt first when its sources
   * changed), which starts about three times faster than the sources under tsx.
   */
  static spawn(args: string[], options: { ipc?: boolean } = {}): CliProcess {
    return CliProcess.node(["scripts/start.cjs", ...args], root, options);
  }

  /**
   * `node <args>` in `cwd`, e.g. the `npm start` launcher of a copy of the project. `ipc`: with
   * a channel from this process, as a test that steps a `--test-clock` has.
   */
  static node(args: string[], cwd: string, options: { ipc?: boolean } = {}): CliProcess {
    const stdio: StdioOptions = [
      "ignore",
      "pipe",
      "pipe",
      ...(options.ipc ? ["ipc" as const] : []),
    ];
    const child = spawn(process.execPath, args, { cwd, stdio });
    return new CliProcess(child);
  }

  /** Resolves with the printed URL, or rejects with the output when the process exits first. */
  url(timeoutMs = 30_000): Promise<URL> {
    return new Promise((resolveUrl, reject) => {
      const check = () => {
        const match = /^(http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)$/m.exec(this.output);
        if (match?.[1]) {
          done();
          resolveUrl(new URL(match[1]));
        }
      };
      const onExit = (code: number | null) => {
        done();
        reject(new Error(`exited with ${code} before printing a URL:\n${this.output}`));
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no URL within ${timeoutMs} ms:\n${this.output}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.child.stdout?.off("data", check);
        this.child.off("exit", onExit);
      };
      this.child.stdout?.on("data", check);
      this.child.once("exit", onExit);
      check();
    });
  }

  exited(): Promise<number | null> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) {
      return Promise.resolve(this.child.exitCode);
    }
    return new Promise((done) => this.child.once("exit", (code) => done(code)));
  }

  async kill(signal: NodeJS.Signals = "SIGKILL"): Promise<void> {
    const exited = this.exited();
    this.child.kill(signal);
    await exited;
  }
}
