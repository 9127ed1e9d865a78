/** How long the page must sit still (no rendering step in the plan, no scroll) before it is "quiet". */
export const QUIET_MS = 1_000;

/**
 * Runs `start` once, when the person looks about to comment on the plan in `root` (a press or a
 * key inside it, or text selected from it; not focus, which a card takes on arrival), or
 * when the page has sat still for QUIET_MS. A long plan's line parse (V2: 50–300 ms in a worker,
 * with its garbage collection) then never competes for a core with the plan's own render or a
 * scroll through it; on two cores it had stretched those frames' tasks to three times their CPU
 * time.
 */
export function whenCommentLikely(root: HTMLElement, start: () => void): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const observer = new MutationObserver(() => restart());
  // Text selected in the plan (V1); a caret moved there by the page is not a person's choice.
  const onSelection = () => {
    const selection = document.getSelection();
    const anchor = selection?.anchorNode;
    if (selection && !selection.isCollapsed && anchor && root.contains(anchor)) fire();
  };
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
    observer.disconnect();
    root.removeEventListener("pointerdown", fire, true);
    root.removeEventListener("keydown", fire, true);
    document.removeEventListener("selectionchange", onSelection);
    // Scroll events do not bubble; a capturing listener on the document sees every one.
    document.removeEventListener("scroll", restart, true);
    document.removeEventListener("wheel", restart, true);
  };
  function fire() {
    if (stopped) return;
    stop();
    start();
  }
  function restart() {
    clearTimeout(timer);
    timer = setTimeout(fire, QUIET_MS);
  }
  root.addEventListener("pointerdown", fire, true);
  root.addEventListener("keydown", fire, true);
  document.addEventListener("selectionchange", onSelection);
  document.addEventListener("scroll", restart, { capture: true, passive: true });
  document.addEventListener("wheel", restart, { capture: true, passive: true });
  observer.observe(root, { childList: true, subtree: true, characterData: true });
  restart();
  return stop;
}
