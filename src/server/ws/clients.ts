import type { WebSocket } from "ws";
import type { DeviceInfo, ServerFrame } from "../../protocol/index.ts";

/** One WebSocket client: whether it has said hello and which sessions it follows. */
export class Client {
  greeted = false;
  /** U4: the device named in hello; answers through this socket record it. */
  device: DeviceInfo | undefined;
  readonly subscriptions = new Set<string>();
  queue: Promise<void> = Promise.resolve();
  /** Its hello asked for batches: frames of one turn of the event loop go out as one message. */
  batches = false;
  /** Serialized frames waiting for the end of this turn of the event loop. */
  private held: string[] = [];

  /** S3: whose named token opened this socket; undefined for the workspace's own token. */
  constructor(
    private readonly socket: WebSocket,
    readonly person?: string,
  ) {}

  send(frame: ServerFrame): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    this.sendText(JSON.stringify(frame));
  }

  /** A frame already serialized (one text for every client it goes to). */
  sendText(text: string): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    if (!this.batches) {
      this.socket.send(text);
      return;
    }
    // Issue 15: held until the immediates run, after this turn's microtasks (the summary and
    // inbox frames that an entry causes), so a tool call's entry, its question and what they
    // change reach the page as one message, handled in one task and drawn in one render.
    if (this.held.length === 0) setImmediate(() => this.flush());
    this.held.push(text);
  }

  /** Sends what is held: one frame as itself, more as one `batch` (ServerBatch), in order. */
  flush(): void {
    const held = this.held;
    if (held.length === 0) return;
    this.held = [];
    if (this.socket.readyState !== this.socket.OPEN) return;
    this.socket.send(
      held.length === 1 ? held[0]! : `{"type":"batch","frames":[${held.join(",")}]}`,
    );
  }

  close(code: number, reason: string): void {
    this.flush();
    this.socket.close(code, reason);
  }
}

/** Everyone connected; events go to a session's subscribers, summaries and settings to all. */
export class ClientSet {
  private readonly clients = new Set<Client>();

  add(client: Client): void {
    this.clients.add(client);
  }

  remove(client: Client): void {
    this.clients.delete(client);
  }

  toAll(frame: ServerFrame): void {
    this.toEach(() => frame);
  }

  /** A frame per greeted client, each distinct frame serialized once (a plan is 300 KB). */
  toEach(frameFor: (client: Client) => ServerFrame): void {
    const texts = new Map<ServerFrame, string>();
    for (const client of this.clients) {
      if (!client.greeted) continue;
      const frame = frameFor(client);
      let text = texts.get(frame);
      if (text === undefined) {
        text = JSON.stringify(frame);
        texts.set(frame, text);
      }
      client.sendText(text);
    }
  }

  toSubscribers(sessionId: string, frame: ServerFrame): void {
    let text: string | undefined;
    for (const client of this.clients) {
      if (!client.subscriptions.has(sessionId)) continue;
      text ??= JSON.stringify(frame);
      client.sendText(text);
    }
  }

  /** W15: nobody follows a deleted session any more. */
  forgetSession(sessionId: string): void {
    for (const client of this.clients) client.subscriptions.delete(sessionId);
  }

  /** S3: every socket a person opened, closed now; their answers stop with them. */
  closeWhere(matches: (client: Client) => boolean, code: number, reason: string): void {
    for (const client of this.clients) {
      if (!matches(client)) continue;
      this.clients.delete(client);
      client.close(code, reason);
    }
  }

  closeAll(code: number, reason: string): void {
    for (const client of this.clients) client.close(code, reason);
    this.clients.clear();
  }
}
