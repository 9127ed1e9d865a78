import { WebSocket } from "ws";
import { PROTOCOL_VERSION, ServerFrame } from "../../protocol/index.ts";

type Frame = ServerFrame;
type FrameOf<T extends Frame["type"]> = Extract<Frame, { type: T }>;

/**
 * A real `ws` client for server tests. Every frame it receives must validate against the
 * wire contract; `next` takes the earliest matching frame no earlier `next` took.
 */
export class TestClient {
  readonly frames: Frame[] = [];
  private readonly taken = new Set<number>();
  private waiters: Array<() => void> = [];
  closed: { code: number; reason: string } | undefined;

  private constructor(readonly socket: WebSocket) {
    socket.on("message", (data) => {
      this.frames.push(ServerFrame.parse(JSON.parse(data.toString())));
      this.wake();
    });
    socket.on("close", (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.wake();
    });
  }

  static open(url: string, headers: Record<string, string> = {}): Promise<TestClient> {
    const socket = new WebSocket(url, { headers });
    return new Promise((resolve, reject) => {
      socket.once("open", () => resolve(new TestClient(socket)));
      socket.once("unexpected-response", (_request, response) =>
        reject(new Error(`upgrade refused: ${response.statusCode}`)),
      );
      socket.once("error", reject);
    });
  }

  /** Opens and says hello; resolves with the welcome. */
  static async greeted(url: string, headers: Record<string, string> = {}) {
    const client = await TestClient.open(url, headers);
    client.send({ type: "hello", protocol: PROTOCOL_VERSION });
    const welcome = await client.next("welcome");
    return { client, welcome };
  }

  send(frame: unknown): void {
    this.socket.send(typeof frame === "string" ? frame : JSON.stringify(frame));
  }

  /** The earliest untaken frame of this type matching the predicate, waiting for it if needed. */
  async next<T extends Frame["type"]>(
    type: T,
    matches: (frame: FrameOf<T>) => boolean = () => true,
    timeoutMs = 5_000,
  ): Promise<FrameOf<T>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      for (let index = 0; index < this.frames.length; index++) {
        const frame = this.frames[index]!;
        if (!this.taken.has(index) && frame.type === type && matches(frame as FrameOf<T>)) {
          this.taken.add(index);
          return frame as FrameOf<T>;
        }
      }
      if (this.closed)
        throw new Error(`closed (${this.closed.code}) before a ${type} frame arrived`);
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(
          `no ${type} frame within ${timeoutMs} ms; got ${JSON.stringify(this.frames.filter((_, i) => !this.taken.has(i)))}`,
        );
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Events of a session received so far, in arrival order. */
  events(sessionId: string): FrameOf<"event">[] {
    return this.frames.filter(
      (frame): frame is FrameOf<"event"> => frame.type === "event" && frame.sessionId === sessionId,
    );
  }

  waitClosed(): Promise<{ code: number; reason: string }> {
    if (this.closed) return Promise.resolve(this.closed);
    return new Promise((resolve) =>
      this.socket.once("close", (code, reason) => resolve({ code, reason: reason.toString() })),
    );
  }

  close(): void {
    this.socket.close();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
