import { useCallback, useRef } from "react";

/**
 * U1 triage: which row of a list has the cursor, and moving focus between rows by index.
 * Rows register themselves by id; the cursor survives rows coming and going.
 */
export function useRovingRows(ids: readonly string[]) {
  const cursor = useRef(0);
  const rows = useRef(new Map<string, HTMLElement>());
  const idsRef = useRef(ids);
  idsRef.current = ids;

  const focusAt = useCallback((index: number) => {
    const list = idsRef.current;
    if (list.length === 0) return;
    const clamped = Math.max(0, Math.min(index, list.length - 1));
    cursor.current = clamped;
    const id = list[clamped];
    if (id) rows.current.get(id)?.focus();
  }, []);

  const step = useCallback(
    (by: number) => {
      const onRow = [...rows.current.values()].some((row) => row === document.activeElement);
      // From outside the list the first press lands on the cursor's own row.
      focusAt(onRow ? cursor.current + by : cursor.current);
    },
    [focusAt],
  );

  const register = useCallback(
    (id: string, index: number) => ({
      ref: (element: HTMLElement | null) => {
        if (element) rows.current.set(id, element);
        else rows.current.delete(id);
      },
      onFocus: () => {
        cursor.current = index;
      },
    }),
    [],
  );

  return { cursor, focusAt, step, register };
}
