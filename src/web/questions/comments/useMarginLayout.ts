import { useSyncExternalStore } from "react";

/** Comments sit in a margin beside the plan from this window width on; below their block under it. */
const WIDE = "(min-width: 1000px)";

function subscribe(onChange: () => void): () => void {
  if (typeof window.matchMedia !== "function") return () => {};
  const query = window.matchMedia(WIDE);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

const wideNow = () => typeof window.matchMedia === "function" && window.matchMedia(WIDE).matches;

export function useMarginLayout(): boolean {
  return useSyncExternalStore(subscribe, wideNow, () => false);
}
