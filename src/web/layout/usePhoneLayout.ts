import { useSyncExternalStore } from "react";

/** The width at which the shell stacks (layout.css: its max-width: 560px rules). */
const PHONE = "(max-width: 560px)";

function subscribe(onChange: () => void): () => void {
  if (typeof window.matchMedia !== "function") return () => {};
  const query = window.matchMedia(PHONE);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

const phoneNow = () => typeof window.matchMedia === "function" && window.matchMedia(PHONE).matches;

export function usePhoneLayout(): boolean {
  return useSyncExternalStore(subscribe, phoneNow, () => false);
}
