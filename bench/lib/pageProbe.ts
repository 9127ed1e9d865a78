import type { Page } from "playwright-core";

/** A server frame as the page received it (parsed lightly, so the probe costs ~nothing). */
export interface FrameRecord {
  type: string;
  kind?: string;
  interactionId?: string;
  /** The entry's `at`: server ms since epoch when it was written. */
  at?: number;
  /** Page clock (timeOrigin + now) when the frame reached the socket's first listener. */
  arrival: number;
  bytes: number;
}

/** A question card (`.qcard`) seen in the DOM. All times are page clock, ms since epoch. */
export interface CardRecord {
  index: number;
  kind: string;
  label: string;
  /** MutationObserver callback after the commit that inserted it. */
  appeared: number;
  /** The next requestAnimationFrame: the frame that paints it. */
  painted?: number;
  /** First task after that frame: its style, layout and paint are done. */
  afterPaint?: number;
  /** When `endMarker` was first found in the card's text, and the frame after that. */
  complete?: number;
  completePainted?: number;
  /** Element Timing: when the card's text was first painted (renderTime), if reported. */
  rendered?: number;
  /** The card's first enabled form control, at paint time. */
  interactive?: boolean;
}

export interface LongTaskRecord {
  start: number;
  duration: number;
}

export interface ProbeState {
  frames: FrameRecord[];
  cards: CardRecord[];
  longTasks: LongTaskRecord[];
  /** Date.now() − (timeOrigin + performance.now()) at install, sampled a few times. */
  clockOffsets: number[];
}

export interface ProbeOptions {
  /** Text whose presence in a card means the whole document in it has rendered. */
  endMarker?: string;
  /** Selector of a question card. */
  cardSelector: string;
}

declare global {
  interface Window {
    __bench: ProbeState;
    __benchNotify?: (event: string) => void;
  }
}

/**
 * Runs in the page before the app (addInitScript). Self-contained: it is serialised.
 * It records frame arrivals, card appearance → paint, and long tasks.
 */
function installProbe(options: ProbeOptions): void {
  const now = () => performance.timeOrigin + performance.now();
  const state: ProbeState = { frames: [], cards: [], longTasks: [], clockOffsets: [] };
  window.__bench = state;
  for (let i = 0; i < 5; i++) state.clockOffsets.push(Date.now() - now());
  const notify = (event: object) => window.__benchNotify?.(JSON.stringify(event));

  const Native = window.WebSocket;
  class ProbedSocket extends Native {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      // Registered before the app sets onmessage, so it runs first for every frame.
      this.addEventListener("message", (event: MessageEvent) => {
        const arrival = now();
        const data = typeof event.data === "string" ? event.data : "";
        const record = (head: string, bytes: number) => {
          const frame: FrameRecord = {
            type: /"type":"([^"]+)"/.exec(head)?.[1] ?? "?",
            arrival,
            bytes,
          };
          const kind = /"kind":"([^"]+)"/.exec(head)?.[1];
          if (kind) frame.kind = kind;
          const at = /"at":(\d+(?:\.\d+)?)/.exec(head)?.[1];
          if (at) frame.at = Number(at);
          const id = /"interactionId":"([^"]+)"/.exec(head)?.[1];
          if (id) frame.interactionId = id;
          state.frames.push(frame);
        };
        if (!data.startsWith('{"type":"batch"')) {
          record(data.slice(0, 400), data.length);
          return;
        }
        // A batch (the frames of one server tick in one message): each frame is recorded with
        // the message's arrival. Frames start where a server frame type opens an element of
        // `frames`; scanned, not parsed, so a big plan's batch costs the page nothing here.
        const starts: number[] = [];
        const frameStart =
          /[[,]\{"type":"(?:welcome|event|snapshot|history|session\.upserted|session\.removed|settings\.changed|assistant\.delta|receipt|error|inbox\.snapshot|inbox\.changed)"/g;
        frameStart.lastIndex = '{"type":"batch"'.length;
        for (let match = frameStart.exec(data); match; match = frameStart.exec(data)) {
          starts.push(match.index + 1);
        }
        starts.forEach((start, i) => {
          const end = starts[i + 1] ?? data.length;
          record(data.slice(start, Math.min(end, start + 400)), end - start);
        });
      });
    }
  }
  window.WebSocket = ProbedSocket;

  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        state.longTasks.push({
          start: performance.timeOrigin + entry.startTime,
          duration: entry.duration,
        });
      }
    }).observe({ type: "longtask", buffered: true });
  } catch {
    // longtask is Chromium-only; the benchmarks run there.
  }

  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        identifier: string;
        renderTime: number;
      })[]) {
        const index = /^bench-card-(\d+)$/.exec(entry.identifier)?.[1];
        const record = index === undefined ? undefined : state.cards[Number(index)];
        if (record && entry.renderTime > 0) {
          const at = performance.timeOrigin + entry.renderTime;
          if (record.rendered === undefined || at < record.rendered) record.rendered = at;
        }
      }
    }).observe({ type: "element", buffered: true });
  } catch {
    // Element Timing is Chromium-only; the benchmarks run there.
  }

  const seen = new WeakSet<Element>();
  const open: { element: Element; record: CardRecord }[] = [];
  // Only the nodes just added are read: reading the card itself after every commit made the
  // probe walk the whole plan per render step (a 300 KB list: its observer's callbacks took
  // 0.23–0.29 ms each, 0.12–0.13 now; ~5 ms per run, counted in the figures it measures).
  const watchCompletion = (added: readonly Node[]) => {
    const marker = options.endMarker;
    if (!marker) return;
    // The marker closes the document: look at the last few paragraphs, not all its text (nor
    // plain text shown before the markdown renders).
    const closes = (root: Element) => {
      if (root.tagName === "P") return (root.textContent ?? "").includes(marker);
      const paragraphs = root.getElementsByTagName("p");
      for (let i = paragraphs.length - 1; i >= Math.max(0, paragraphs.length - 4); i--) {
        if ((paragraphs[i]?.textContent ?? "").includes(marker)) return true;
      }
      return false;
    };
    for (const item of open) {
      if (item.record.complete !== undefined) continue;
      const found = added.some((node) =>
        node.contains(item.element)
          ? closes(item.element)
          : node instanceof Element && item.element.contains(node) && closes(node),
      );
      if (!found) continue;
      item.record.complete = now();
      requestAnimationFrame(() => {
        item.record.completePainted = now();
        notify({ type: "complete", index: item.record.index });
      });
    }
  };
  const onCard = (element: Element) => {
    if (seen.has(element)) return;
    seen.add(element);
    const record: CardRecord = {
      index: state.cards.length,
      kind: element.className,
      label: `${element.getAttribute("aria-label") ?? ""} ${(element.textContent ?? "").slice(0, 200)}`,
      appeared: now(),
    };
    state.cards.push(record);
    open.push({ element, record });
    // Element Timing reports the frame that painted text, for elements marked before that
    // paint; this callback runs after the commit, before the frame.
    const identifier = `bench-card-${record.index}`;
    let marked = 0;
    for (const node of [element, ...element.querySelectorAll("*")]) {
      if (marked >= 60) break;
      const ownText = [...node.childNodes].some(
        (child) => child.nodeType === Node.TEXT_NODE && (child.textContent ?? "").trim() !== "",
      );
      if (ownText) {
        node.setAttribute("elementtiming", identifier);
        marked += 1;
      }
    }
    requestAnimationFrame(() => {
      record.painted = now();
      const control = element.querySelector<HTMLInputElement | HTMLButtonElement>(
        "input:not([disabled]), button:not([disabled])",
      );
      record.interactive = control !== null && !control.closest("fieldset[disabled]");
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        record.afterPaint = now();
        notify({ type: "card", index: record.index, label: record.label });
      };
      channel.port2.postMessage(null);
    });
  };
  const scan = (node: Node) => {
    if (!(node instanceof Element)) return;
    if (node.matches(options.cardSelector)) onCard(node);
    for (const card of node.querySelectorAll(options.cardSelector)) onCard(card);
  };
  new MutationObserver((mutations) => {
    const added: Node[] = [];
    for (const mutation of mutations) {
      for (const node of mutation.addedNodes) {
        scan(node);
        added.push(node);
      }
    }
    watchCompletion(added);
  }).observe(document, { childList: true, subtree: true });
}

/** Installs the probe and a binding that forwards its events to `onEvent`. */
export async function probePage(
  page: Page,
  options: ProbeOptions,
  onEvent: (event: ProbeEvent) => void = () => {},
): Promise<void> {
  await page.exposeFunction("__benchNotify", (json: string) => onEvent(JSON.parse(json)));
  // tsx compiles with keepNames, so serialised functions call `__name`; the page needs one.
  await page.addInitScript({
    content: `globalThis.__name = (target) => target;\n(${installProbe.toString()})(${JSON.stringify(options)});`,
  });
}

export function readProbe(page: Page): Promise<ProbeState> {
  return page.evaluate(() => window.__bench);
}

/** Resolves on the next probe event that satisfies `match`, or rejects after `ms`. */
export interface ProbeEvent {
  type: string;
  index: number;
  label?: string;
}

export class ProbeEvents {
  private readonly waiters = new Set<{
    match: (event: ProbeEvent) => boolean;
    resolve: (event: ProbeEvent) => void;
  }>();

  readonly listener = (event: ProbeEvent) => {
    for (const waiter of this.waiters) {
      if (waiter.match(event)) {
        this.waiters.delete(waiter);
        waiter.resolve(event);
      }
    }
  };

  next(match: (event: ProbeEvent) => boolean, ms: number, what: string): Promise<ProbeEvent> {
    return new Promise((resolve, reject) => {
      const waiter = {
        match,
        resolve: (event: ProbeEvent) => {
          clearTimeout(timer);
          resolve(event);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`timed out after ${ms} ms waiting for ${what}`));
      }, ms);
      this.waiters.add(waiter);
    });
  }
}
