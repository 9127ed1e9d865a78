import { CallSignal } from "./callSignal.ts";

describe("a waiting call's signal (B3)", () => {
  it("[B3] fires each abort listener once, in order, function or object, and not one removed or added twice", () => {
    const signal = new CallSignal();
    const heard: string[] = [];
    const first = () => heard.push("first");
    const object = { handleEvent: () => heard.push("object") };
    const removed = () => heard.push("removed");
    signal.addEventListener("abort", first);
    signal.addEventListener("abort", first);
    signal.addEventListener("abort", object);
    signal.addEventListener("abort", removed);
    signal.removeEventListener("abort", removed);
    signal.abort("the agent cancelled the call");
    signal.abort("again");
    expect(heard).toEqual(["first", "object"]);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe("the agent cancelled the call");
    expect(() => signal.throwIfAborted()).toThrow("the agent cancelled the call");
  });

  it("[B3] a lone listener removed is not called, nor added twice; one added after it is", () => {
    const signal = new CallSignal();
    const heard: string[] = [];
    const lone = { handleEvent: () => heard.push("lone") };
    const next = () => heard.push("next");
    signal.addEventListener("abort", lone);
    signal.removeEventListener("abort", lone);
    signal.addEventListener("abort", next);
    signal.addEventListener("abort", next);
    signal.abort("the agent cancelled the call");
    expect(heard).toEqual(["next"]);
  });

  it("[B3] a listener added after the abort is never called, as with an AbortSignal", () => {
    const signal = new CallSignal();
    signal.abort("gone");
    const late = vi.fn();
    signal.addEventListener("abort", late);
    signal.abort("again");
    expect(late).not.toHaveBeenCalled();
  });

  it("[B3] a listener that throws does not keep the others from hearing the abort", async () => {
    const signal = new CallSignal();
    const after = vi.fn();
    const reported = new Promise<unknown>((resolve) => {
      const original = globalThis.queueMicrotask;
      vi.spyOn(globalThis, "queueMicrotask").mockImplementationOnce((task) => {
        original(() => {
          try {
            task();
          } catch (error) {
            resolve(error);
          }
        });
      });
    });
    signal.addEventListener("abort", () => {
      throw new Error("listener failed");
    });
    signal.addEventListener("abort", after);
    signal.abort("gone");
    expect(after).toHaveBeenCalledOnce();
    expect(await reported).toEqual(new Error("listener failed"));
    vi.restoreAllMocks();
  });
});
