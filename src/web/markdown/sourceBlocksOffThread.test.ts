import { afterEach, describe, expect, it, vi } from "vitest";

const parseHere = vi.hoisted(() => vi.fn());
vi.mock("./sourceBlocks.ts", () => ({ sourceBlocks: parseHere }));

/** A worker that answers every request with `reply`, or fails as a whole (`onerror`). */
function fakeWorker(reply: "failed" | "crash") {
  return class {
    onmessage: ((event: { data: unknown }) => void) | null = null;
    onerror: (() => void) | null = null;
    postMessage({ id }: { id: number }) {
      setTimeout(() => {
        if (reply === "crash") this.onerror?.();
        else this.onmessage?.({ data: { id, failed: true } });
      });
    }
    terminate() {}
  };
}

async function freshModule() {
  vi.resetModules();
  return import("./sourceBlocksOffThread.ts");
}

afterEach(() => {
  vi.unstubAllGlobals();
  parseHere.mockReset();
});

describe("plan lines off the main thread (V2)", () => {
  for (const reply of ["failed", "crash"] as const) {
    it(`[V2] a parse the worker could not finish (${reply}) is tried here, and rejects when that fails too`, async () => {
      vi.stubGlobal("Worker", fakeWorker(reply));
      const { sourceBlocksOffThread } = await freshModule();
      parseHere.mockImplementationOnce(() => {
        throw new Error("cannot parse");
      });
      await expect(sourceBlocksOffThread("# Plan")).rejects.toThrow("cannot parse");
      parseHere.mockReturnValueOnce([{ kind: "heading" }]);
      await expect(sourceBlocksOffThread("# Plan")).resolves.toEqual([{ kind: "heading" }]);
    });
  }
});
