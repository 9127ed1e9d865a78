/**
 * Test support: an MCP client written from the Streamable HTTP spec with nothing but fetch,
 * independent of the SDK, so the transport rules are checked against the wire itself.
 */
export interface SseEvent {
  id?: string;
  data: string;
}

export interface RawReply {
  status: number;
  headers: Headers;
  events: SseEvent[];
  json?: unknown;
}

export const MCP_VERSION = "2025-11-25";

export class RawMcpClient {
  sessionId: string | undefined;
  private nextId = 1;

  constructor(
    readonly endpoint: string,
    readonly token: string,
  ) {}

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return {
      authorization: `Bearer ${this.token}`,
      accept: "application/json, text/event-stream",
      "content-type": "application/json",
      "mcp-protocol-version": MCP_VERSION,
      ...(this.sessionId ? { "mcp-session-id": this.sessionId } : {}),
      ...extra,
    };
  }

  async initialize(name = "raw-agent"): Promise<RawReply> {
    const reply = await this.post(
      this.request("initialize", {
        protocolVersion: MCP_VERSION,
        capabilities: {},
        clientInfo: { name, version: "1.0.0" },
      }),
      { "mcp-protocol-version": "" },
    );
    this.sessionId = reply.headers.get("mcp-session-id") ?? undefined;
    await this.post({ jsonrpc: "2.0", method: "notifications/initialized" });
    return reply;
  }

  request(method: string, params: unknown = {}) {
    return { jsonrpc: "2.0", id: this.nextId++, method, params };
  }

  /** POSTs and reads the whole reply; SSE replies are read until the stream ends. */
  async post(
    body: unknown,
    headers: Record<string, string> = {},
    options: {
      readTimeoutMs?: number;
      signal?: AbortSignal;
      onEvent?: (event: SseEvent) => void;
    } = {},
  ): Promise<RawReply> {
    const all = this.headers(headers);
    for (const [key, value] of Object.entries(all)) if (value === "") delete all[key];
    const response = await fetch(this.endpoint, {
      method: "POST",
      headers: all,
      body: typeof body === "string" ? body : JSON.stringify(body),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return readReply(response, options);
  }

  /** GET: the standalone stream, or a resumed one with Last-Event-ID. */
  async get(
    headers: Record<string, string> = {},
    options: {
      readTimeoutMs?: number;
      signal?: AbortSignal;
      onEvent?: (event: SseEvent) => void;
    } = {},
  ): Promise<RawReply> {
    const all = this.headers({ accept: "text/event-stream", ...headers });
    delete all["content-type"];
    const response = await fetch(this.endpoint, {
      method: "GET",
      headers: all,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return readReply(response, options);
  }
}

/** Reads an SSE body event by event; gives up when no byte arrives within the read timeout. */
async function readReply(
  response: Response,
  options: { readTimeoutMs?: number; onEvent?: (event: SseEvent) => void },
): Promise<RawReply> {
  const type = response.headers.get("content-type") ?? "";
  if (!type.includes("text/event-stream")) {
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = text;
    }
    return {
      status: response.status,
      headers: response.headers,
      events: [],
      ...(json === undefined ? {} : { json }),
    };
  }
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const events: SseEvent[] = [];
  let buffer = "";
  for (;;) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      if (options.readTimeoutMs !== undefined) {
        timer = setTimeout(
          () => reject(new Error(`read timeout: no byte for ${options.readTimeoutMs} ms`)),
          options.readTimeoutMs,
        );
      }
    });
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await Promise.race([reader.read(), timeout]);
    } catch (error) {
      await reader.cancel().catch(() => {});
      throw error;
    } finally {
      clearTimeout(timer);
    }
    if (chunk.done) break;
    buffer += decoder.decode(chunk.value, { stream: true });
    let end = buffer.indexOf("\n\n");
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf("\n\n");
      const event: SseEvent = { data: "" };
      for (const line of block.split("\n")) {
        if (line.startsWith("id: ")) event.id = line.slice(4);
        if (line.startsWith("data: ")) event.data += line.slice(6);
      }
      if (event.id === undefined && event.data === "") continue;
      events.push(event);
      options.onEvent?.(event);
      // A response ends the wait, as it does for any client; a resumed stream may stay open.
      if (/"(result|error)":/.test(event.data)) {
        await reader.cancel().catch(() => {});
        return { status: response.status, headers: response.headers, events };
      }
    }
  }
  return { status: response.status, headers: response.headers, events };
}

/** The JSON-RPC messages among the events (the priming event carries none). */
export function messagesOf(reply: RawReply): Array<Record<string, unknown>> {
  const fromEvents = reply.events
    .filter((event) => event.data.trim() !== "")
    .map((event) => JSON.parse(event.data) as Record<string, unknown>);
  return reply.json === undefined ? fromEvents : [reply.json as Record<string, unknown>];
}
