import { sourceBlocks } from "./sourceBlocks.ts";

// V2 off the main thread: a 300 KB plan's whole-text parse is 50–300 ms of one task, which
// would land while the person reads or scrolls the plan. Request: { id, text }; reply:
// { id, blocks }, or { id, failed: true } when the parse throws (the worker stays usable).
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<{ id: number; text: string }>) => void) | null;
  postMessage(message: unknown): void;
};
scope.onmessage = (event) => {
  try {
    scope.postMessage({ id: event.data.id, blocks: sourceBlocks(event.data.text) });
  } catch {
    scope.postMessage({ id: event.data.id, failed: true });
  }
};
