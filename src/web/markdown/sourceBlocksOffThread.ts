import type { SourceBlock } from "./sourceBlocks.ts";

// V2: sourceBlocks parses the whole plan at once (50–300 ms for a 300 KB plan); in a worker that
// task never blocks reading or scrolling. Where there is no Worker (tests) or it fails to start,
// the parse runs here, loaded lazily as before. A parse the worker could not finish is tried
// here once; if that fails too the promise rejects, so the caller can say so and try again.
type Reply = { id: number; blocks: SourceBlock[] } | { id: number; failed: true };

interface Waiting {
  text: string;
  resolve(blocks: SourceBlock[]): void;
  reject(error: unknown): void;
}

let worker: Worker | null | undefined;
let nextId = 0;
const waiting = new Map<number, Waiting>();

const parseHere = async (text: string): Promise<SourceBlock[]> =>
  (await import("./sourceBlocks.ts")).sourceBlocks(text);

const parseHereFor = ({ text, resolve, reject }: Waiting) => parseHere(text).then(resolve, reject);

function startWorker(): Worker | null {
  if (typeof Worker === "undefined") return null;
  try {
    const started = new Worker(new URL("./sourceBlocks.worker.ts", import.meta.url), {
      type: "module",
    });
    started.onmessage = (event: MessageEvent<Reply>) => {
      const asked = waiting.get(event.data.id);
      waiting.delete(event.data.id);
      if (asked === undefined) return;
      if ("blocks" in event.data) asked.resolve(event.data.blocks);
      else void parseHereFor(asked);
    };
    started.onerror = () => {
      // The worker is gone: what it was asked is parsed here instead, and so is all that follows.
      worker = null;
      started.terminate();
      for (const asked of waiting.values()) void parseHereFor(asked);
      waiting.clear();
    };
    return started;
  } catch {
    return null;
  }
}

/**
 * The commentable blocks of a markdown text (sourceBlocks), parsed in a worker when possible;
 * rejects when neither the worker nor this thread could parse it.
 */
export function sourceBlocksOffThread(text: string): Promise<SourceBlock[]> {
  if (worker === undefined) worker = startWorker();
  const current = worker;
  if (current === null) return parseHere(text);
  return new Promise((resolve, reject) => {
    const id = nextId++;
    waiting.set(id, { text, resolve, reject });
    current.postMessage({ id, text });
  });
}
