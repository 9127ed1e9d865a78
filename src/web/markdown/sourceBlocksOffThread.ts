import type { SourceBlock } from "./sourceBlocks.ts";

// V2: sourceBlocks parses the whole plan at once (50–300 ms for a 300 KB plan); in a worker that
// task never blocks reading or scrolling. Where there is no Worker (tests) or it fails to start,
// the parse runs here, loaded lazily as before.
type Reply = { id: number; blocks: SourceBlock[] };

let worker: Worker | null | undefined;
let nextId = 0;
const waiting = new Map<number, { text: string; resolve: (blocks: SourceBlock[]) => void }>();

const parseHere = async (text: string): Promise<SourceBlock[]> =>
  (await import("./sourceBlocks.ts")).sourceBlocks(text);

function startWorker(): Worker | null {
  if (typeof Worker === "undefined") return null;
  try {
    const started = new Worker(new URL("./sourceBlocks.worker.ts", import.meta.url), {
      type: "module",
    });
    started.onmessage = (event: MessageEvent<Reply>) => {
      waiting.get(event.data.id)?.resolve(event.data.blocks);
      waiting.delete(event.data.id);
    };
    started.onerror = () => {
      // The worker is gone: what it was asked is parsed here instead, and so is all that follows.
      worker = null;
      started.terminate();
      for (const { text, resolve } of waiting.values()) void parseHere(text).then(resolve);
      waiting.clear();
    };
    return started;
  } catch {
    return null;
  }
}

/** The commentable blocks of a markdown text (sourceBlocks), parsed in a worker when possible. */
export function sourceBlocksOffThread(text: string): Promise<SourceBlock[]> {
  if (worker === undefined) worker = startWorker();
  const current = worker;
  if (current === null) return parseHere(text);
  return new Promise((resolve) => {
    const id = nextId++;
    waiting.set(id, { text, resolve });
    current.postMessage({ id, text });
  });
}
