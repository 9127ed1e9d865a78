import {
  type ClientFrame,
  type DeviceInfo,
  type ErrorCode,
  PROTOCOL_VERSION,
  type ResumePoint,
  type ServerFrame,
} from "../../protocol/index.ts";
import type { ConnectionStatus } from "../store/types.ts";
import { type BackoffPolicy, backoffDelay, DEFAULT_BACKOFF } from "./backoff.ts";
import { readServerMessage, type ServerFrameReading } from "./readServerFrame.ts";

/** The part of the browser WebSocket this class uses, so tests can hand in a fake. */
export interface SocketLike {
  readonly readyState: number;
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export type SocketFactory = (url: string) => SocketLike;

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface ConnectionOptions {
  url: string;
  createSocket: SocketFactory;
  /** Sessions to resume in `hello`, read at each (re)connect (W3). */
  resume(): ResumePoint[];
  /** U4: the device this tab runs on, named in every hello. */
  device?: () => DeviceInfo;
  /**
   * Asks the server for batches (issue 15): the frames of one turn of its event loop arrive as
   * one message and are applied in one task, so React draws them in one render.
   */
  batches?: boolean;
  /**
   * `serverTimeAt`: the browser time that a welcome's `serverNow` is matched to, the middle of
   * the hello round trip, so a slow delivery skews countdowns by half as much (A6).
   */
  onFrame(frame: ServerFrame, serverTimeAt?: number): void;
  onStatus(status: ConnectionStatus): void;
  /**
   * W8: asked after an attempt that never opened. A browser cannot read why an upgrade failed,
   * so this asks the server over HTTP: "refused" ends the retries for good.
   */
  checkAccess?: () => Promise<AccessCheck>;
  now?: () => number;
  random?: () => number;
  timers?: Timers;
  backoff?: BackoffPolicy;
  /** An open lasting this long counts as stable and resets the backoff. */
  stableAfterMs?: number;
  log?: (message: string, detail?: unknown) => void;
}

const OPEN = 1;

export type AccessCheck = "ok" | "refused" | "unreachable";

/** `/ws` on the page's own origin; the auth cookie rides along with the upgrade. */
export function socketUrl(location: Pick<Location, "protocol" | "host">): string {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws`;
}

/**
 * One WebSocket that keeps itself connected: hello with resume points on every open,
 * validated frames in, exponential backoff with jitter between attempts.
 */
export class Connection {
  private socket: SocketLike | null = null;
  private attempt = 0;
  private openedAt: number | null = null;
  private helloSentAt: number | null = null;
  private retryHandle: unknown = null;
  private stopped = false;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly timers: Timers;
  private readonly backoff: BackoffPolicy;
  private readonly stableAfterMs: number;
  private readonly log: (message: string, detail?: unknown) => void;

  constructor(private readonly options: ConnectionOptions) {
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    this.timers = options.timers ?? {
      setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
      clearTimeout: (handle) => globalThis.clearTimeout(handle as number),
    };
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.stableAfterMs = options.stableAfterMs ?? 5_000;
    this.log = options.log ?? ((message, detail) => console.warn(message, detail));
  }

  start(): void {
    this.stopped = false;
    this.connect();
  }

  /**
   * Ends for good, for example when the server refuses our token or protocol. `code`: the
   * server's error code when it ended the link, so the page words it itself (W2).
   */
  stop(reason: string, code?: ErrorCode): void {
    this.stopped = true;
    if (this.retryHandle !== null) this.timers.clearTimeout(this.retryHandle);
    this.retryHandle = null;
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onclose = null;
      socket.close(1000, reason);
    }
    this.options.onStatus({ status: "closed", reason, ...(code === undefined ? {} : { code }) });
  }

  get isOpen(): boolean {
    return this.socket?.readyState === OPEN;
  }

  /** Returns false when the frame could not go out; callers keep their input then. */
  send(frame: ClientFrame): boolean {
    if (!this.socket || this.socket.readyState !== OPEN) return false;
    this.socket.send(JSON.stringify(frame));
    return true;
  }

  private connect(): void {
    this.retryHandle = null;
    this.options.onStatus({ status: "connecting" });
    let socket: SocketLike;
    try {
      socket = this.options.createSocket(this.options.url);
    } catch (error) {
      this.log("could not open the WebSocket", error);
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      this.openedAt = this.now();
      const resume = this.options.resume().slice(0, 100);
      const hello: ClientFrame =
        resume.length > 0
          ? { type: "hello", protocol: PROTOCOL_VERSION, resume }
          : { type: "hello", protocol: PROTOCOL_VERSION };
      if (this.options.device) hello.device = this.options.device();
      if (this.options.batches) hello.batches = true;
      this.helloSentAt = this.now();
      socket.send(JSON.stringify(hello));
    };
    socket.onmessage = (event) => this.receive(event.data);
    socket.onerror = () => {
      // The close event that follows carries what we act on.
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      const opened = this.openedAt !== null;
      if (this.openedAt !== null && this.now() - this.openedAt >= this.stableAfterMs) {
        this.attempt = 0;
      }
      this.openedAt = null;
      if (this.stopped) return;
      const check = this.options.checkAccess;
      if (opened || !check) {
        this.scheduleReconnect();
        return;
      }
      check().then(
        (access) => this.afterAccessCheck(access),
        () => this.afterAccessCheck("unreachable"),
      );
    };
  }

  private afterAccessCheck(access: AccessCheck): void {
    if (this.stopped || this.socket !== null || this.retryHandle !== null) return;
    if (access === "refused") {
      this.stopped = true;
      this.options.onStatus({ status: "refused" });
      return;
    }
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    this.attempt += 1;
    const delay = backoffDelay(this.attempt, this.random(), this.backoff);
    this.options.onStatus({
      status: "reconnecting",
      attempt: this.attempt,
      retryAt: this.now() + delay,
    });
    this.retryHandle = this.timers.setTimeout(() => this.connect(), delay);
  }

  private receive(data: unknown): void {
    // A batch's frames are applied one after another in this task: their store updates reach
    // React together, as one render.
    for (const reading of readServerMessage(data)) this.apply(reading);
  }

  private apply(reading: ServerFrameReading): void {
    if (!reading.ok) {
      this.log(reading.problem, reading.detail);
      return;
    }
    const { frame, problems } = reading;
    for (const problem of problems)
      this.log(`kept a ${frame.type} frame without a bad entry`, problem);
    let serverTimeAt: number | undefined;
    if (frame.type === "welcome" && this.helloSentAt !== null) {
      serverTimeAt = (this.helloSentAt + this.now()) / 2;
      this.helloSentAt = null;
    }
    try {
      this.options.onFrame(frame, serverTimeAt);
    } catch (error) {
      this.log(`failed to apply a ${frame.type} frame`, error);
    }
  }
}
