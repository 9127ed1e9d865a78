import { useSyncExternalStore } from "react";

// One subscribe function per query: useSyncExternalStore resubscribes when it changes.
const subscribers = new Map<string, (onChange: () => void) => () => void>();

function subscribeTo(query: string): (onChange: () => void) => () => void {
  let subscribe = subscribers.get(query);
  if (subscribe === undefined) {
    subscribe = (onChange) => {
      if (typeof window.matchMedia !== "function") return () => {};
      const list = window.matchMedia(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    };
    subscribers.set(query, subscribe);
  }
  return subscribe;
}

/** Whether the window matches a media query now, re-rendering when that changes. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    subscribeTo(query),
    () => typeof window.matchMedia === "function" && window.matchMedia(query).matches,
    () => false,
  );
}
