// `GET /` back to back on one kept-alive connection, in a process of its own: a browser tab is
// not the agents' process, so the senders' own work must not count as the server's latency.
// Started by `startPageGetter`; on "stop" it sends back every sample and exits.
import { fork } from "node:child_process";
import { Agent as HttpAgent, get as httpGet } from "node:http";
import { fileURLToPath } from "node:url";

export interface PageGet {
  /** Epoch ms when the response ended. */
  at: number;
  ms: number;
}

function getPage(url: string, token: string, agent: HttpAgent): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = httpGet(
      url,
      { agent, headers: { authorization: `Bearer ${token}` } },
      (res) => {
        res.on("data", () => {});
        res.on("end", () => resolve());
        res.on("error", reject);
      },
    );
    request.on("error", reject);
  });
}

async function runGetter(url: string, token: string): Promise<void> {
  const agent = new HttpAgent({ keepAlive: true, maxSockets: 1 });
  const gets: PageGet[] = [];
  let probing = true;
  process.on("message", () => {
    probing = false;
  });
  // Connected before the caller starts its load, so no sample waits in the accept queue.
  await getPage(url, token, agent);
  process.send?.("ready");
  while (probing) {
    const started = performance.now();
    await getPage(url, token, agent);
    gets.push({ at: Date.now(), ms: performance.now() - started });
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  agent.destroy();
  process.send?.(gets, () => process.exit(0));
}

export interface PageGetter {
  /** Ends the getter and returns its samples. */
  stop(): Promise<PageGet[]>;
  /** Ends it without its samples (the run failed); nothing if it has ended. */
  kill(): void;
}

export async function startPageGetter(url: string, token: string): Promise<PageGetter> {
  const child = fork(fileURLToPath(import.meta.url), [url, token], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  await new Promise<void>((resolve, reject) => {
    child.once("message", () => resolve());
    child.once("exit", (code) => reject(new Error(`the page getter exited (${code})`)));
  });
  return {
    stop: () =>
      new Promise((resolve, reject) => {
        child.once("message", (gets) => resolve(gets as PageGet[]));
        child.once("exit", (code) => reject(new Error(`the page getter exited (${code})`)));
        child.send("stop");
      }),
    kill: () => {
      if (child.exitCode === null) child.kill();
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [url, token] = process.argv.slice(2);
  await runGetter(url as string, token as string);
}
