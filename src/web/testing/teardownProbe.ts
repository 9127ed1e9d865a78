import { onTestFinished, vi } from "vitest";

/**
 * Watches a long text being taken down in steps (layout/teardown.tsx): the markdown blocks
 * removed per MutationObserver callback, that is per task. The page's clock advances 2.5 ms on
 * every read meanwhile, so work split by a time budget splits the same on any machine.
 */
export function watchTeardown(root: Element) {
  let now = performance.now();
  const clock = vi.spyOn(performance, "now").mockImplementation(() => {
    now += 2.5;
    return now;
  });
  const perTask: number[] = [];
  const observer = new MutationObserver((records) => {
    let removed = 0;
    for (const record of records) {
      for (const node of record.removedNodes) {
        if (node instanceof Element && node.classList.contains("md-block")) removed += 1;
      }
    }
    if (removed > 0) perTask.push(removed);
  });
  observer.observe(root, { childList: true, subtree: true });
  const stop = () => {
    observer.disconnect();
    clock.mockRestore();
  };
  // Also when an assertion fails first: the next test gets the real clock.
  onTestFinished(stop);
  return { perTask, stop };
}
