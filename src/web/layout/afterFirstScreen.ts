import type { WebData } from "../store/types.ts";
import { whenIdle } from "./whenIdle.ts";

interface Store {
  getState(): WebData;
  subscribe(listener: (state: WebData) => void): () => void;
}

/** Past this, lazy chunks are fetched even if the server has not answered (offline start). */
const GIVE_UP_MS = 5000;

/** The first screen is up: welcome came and the selected session, if any, has its snapshot. */
function firstScreenShown(state: WebData): boolean {
  const selected = state.selectedSessionId;
  return state.timings !== null && (selected === null || state.views[selected] !== undefined);
}

/**
 * Issue 15: runs `then` once the first screen, with any card it shows, has been painted and the
 * page is idle, so chunks fetched ahead of use never compete with (or count before) that card.
 */
export function afterFirstScreen(store: Store, then: () => void): void {
  let done = false;
  const idle = () => {
    if (done) return;
    done = true;
    unsubscribe();
    clearTimeout(timer);
    const afterPaint = () => whenIdle(then, 1000);
    // The next frame paints what the store just rendered; the idle time after it is ours. A
    // hidden tab paints nothing and runs no frame until shown (W4 must work there): go on.
    if (document.visibilityState === "hidden") afterPaint();
    else requestAnimationFrame(afterPaint);
  };
  const unsubscribe = store.subscribe((state) => {
    if (firstScreenShown(state)) idle();
  });
  const timer = setTimeout(idle, GIVE_UP_MS);
  if (firstScreenShown(store.getState())) idle();
}
