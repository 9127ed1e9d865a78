import { useCallback, useLayoutEffect, useState } from "react";

export interface Mounted<T> {
  each: T;
  key: string;
  /** Gone from the screen; kept mounted, hidden, while it takes itself down (teardown.tsx). */
  isLeaving: boolean;
}

/**
 * The attributes of an item's element: hidden while it leaves (out of the accessibility tree;
 * layout.css keeps its layout objects), and marked for the focus check below.
 */
export function leavingProps({ key, isLeaving }: Mounted<unknown>) {
  return { hidden: isLeaving || undefined, "data-leaving": isLeaving ? key : undefined };
}

/**
 * What a container mounts: the item it shows, after the items that have just left it and take
 * themselves down in steps. `leavesInSteps` decides, as an item leaves, whether it is kept;
 * `left` drops a kept item once it is down (its TeardownScope's onDone). Focus inside a leaving
 * element (`leavingProps`) moves out, as its removal would have moved it.
 */
export function useLeaving<T>(
  current: T | null,
  keyOf: (item: T) => string,
  leavesInSteps: (item: T) => boolean,
) {
  const key = current === null ? undefined : keyOf(current);
  const [previous, setPrevious] = useState(current);
  const [leaving, setLeaving] = useState<Mounted<T>[]>([]);
  const previousKey = previous === null ? undefined : keyOf(previous);
  // During render, so the item never unmounts between being shown and leaving.
  if (key !== previousKey) {
    setPrevious(current);
    const gone =
      previous !== null && previousKey !== undefined && leavesInSteps(previous)
        ? { each: previous, key: previousKey, isLeaving: true }
        : null;
    // An item shown again before it was down is no longer leaving.
    setLeaving((items) => {
      const rest = items.filter((item) => item.key !== key && item.key !== gone?.key);
      if (gone) return [...rest, gone];
      return rest.length === items.length ? items : rest;
    });
  }
  const mounted = leaving.filter((item) => item.key !== key);
  if (current !== null && key !== undefined) mounted.push({ each: current, key, isLeaving: false });

  const leavingKeys = mounted
    .filter((item) => item.isLeaving)
    .map((item) => item.key)
    .join(" ");
  useLayoutEffect(() => {
    if (leavingKeys === "") return;
    const active = document.activeElement;
    if (active instanceof HTMLElement && active.closest("[data-leaving]")) active.blur();
  }, [leavingKeys]);

  const left = useCallback(
    (gone: string) => setLeaving((items) => items.filter((item) => item.key !== gone)),
    [],
  );
  return { mounted, left };
}
