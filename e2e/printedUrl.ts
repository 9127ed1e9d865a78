import type { ChildProcess } from "node:child_process";

export interface PrintedUrl {
  url: string;
  origin: string;
  token: string;
}

/** The start-up line the CLI prints on its own: the page's URL with the access token. */
const URL_LINE = /^(http:\/\/127\.0\.0\.1:\d+\/\S*token=\S+)$/m;

/**
 * Waits for a plangate server process to print its URL. Everything it writes goes to
 * `collect`, so a caller can show the log when the start fails or a test does.
 */
export function waitForPrintedUrl(
  child: ChildProcess,
  collect: (text: string) => void,
  timeoutMs = 30_000,
): Promise<PrintedUrl> {
  let stdout = "";
  let log = "";
  return new Promise<PrintedUrl>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the server did not print its URL:\n${log}`)),
      timeoutMs,
    );
    child.stdout?.on("data", (chunk: Buffer) => {
      const text = chunk.toString();
      stdout += text;
      log += text;
      collect(text);
      const line = URL_LINE.exec(stdout)?.[1];
      if (line) {
        clearTimeout(timer);
        const parsed = new URL(line);
        resolve({
          url: line,
          origin: parsed.origin,
          token: parsed.searchParams.get("token") ?? "",
        });
      }
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      const text = chunk.toString();
      log += text;
      collect(text);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code}:\n${log}`));
    });
  });
}
