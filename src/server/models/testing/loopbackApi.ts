import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** What a fake vendor API saw: tests assert the wire body we sent. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: unknown;
}

export type FakeReply =
  | { readonly status: number; readonly json: unknown; readonly headers?: Record<string, string> }
  /**
   * Server-sent events, written one by one; `hold` keeps the response open afterwards, `reset`
   * breaks the connection (TCP reset) instead of ending the response.
   */
  | { readonly sse: readonly string[]; readonly hold?: boolean; readonly reset?: boolean }
  /** The connection is reset before any response. */
  | { readonly reset: "before-response" };

export interface LoopbackApi {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly requests: RecordedRequest[];
  /** Resolves when a held stream's client has gone away (after an abort). */
  readonly clientGone: Promise<void>;
  close(): Promise<void>;
}

/**
 * A loopback HTTP server speaking whatever wire format the replies are written in.
 * Replies are used in order; the last one repeats (so SDK retries see the same answer).
 */
export async function startLoopbackApi(replies: readonly FakeReply[]): Promise<LoopbackApi> {
  const requests: RecordedRequest[] = [];
  let markClientGone = () => {};
  const clientGone = new Promise<void>((resolve) => {
    markClientGone = resolve;
  });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      requests.push({
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body: text === "" ? undefined : JSON.parse(text),
      });
      const reply = replies[Math.min(requests.length, replies.length) - 1];
      if (reply === undefined) {
        sendJson(res, 500, { error: { message: "the fake API has no reply queued" } });
        return;
      }
      if ("json" in reply) {
        sendJson(res, reply.status, reply.json, reply.headers);
        return;
      }
      if (!("sse" in reply)) {
        req.socket.resetAndDestroy();
        return;
      }
      res.writeHead(200, {
        "content-type": "text/event-stream",
        "cache-control": "no-cache",
        connection: "keep-alive",
      });
      for (const event of reply.sse) res.write(event);
      if (reply.reset) {
        // After the events have left, so the client reads them before the connection breaks.
        setTimeout(() => req.socket.resetAndDestroy(), 20);
        return;
      }
      if (reply.hold) {
        res.on("close", () => markClientGone());
        return;
      }
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    clientGone,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

/** A port that refuses connections: bound once, then released. */
export async function closedPortOrigin(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
