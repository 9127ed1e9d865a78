import { useCallback, useEffect, useRef } from "react";

interface RowHandlers {
  rowRef(element: HTMLElement | null): void;
  onFocus(): void;
}

/**
 * U1 triage: which row of a list has the cursor, and moving focus between rows by index.
 * Rows register themselves by id; the cursor survives rows coming and going. A row not
 * rendered yet (past the shown part of a long list) is revealed first, then focused.
 */
export function useRovingRows(ids: readonly string[], reveal: (index: number) => void) {
  const cursor = useRef(0);
  const rows = useRef(new Map<string, HTMLElement>());
  const pending = useRef(false);
  const idsRef = useRef(ids);
  idsRef.current = ids;

  const focusAt = useCallback(
    (index: number) => {
      const list = idsRef.current;
      if (list.length === 0) return;
      const clamped = Math.max(0, Math.min(index, list.length - 1));
      cursor.current = clamped;
      const id = list[clamped];
      const row = id === undefined ? undefined : rows.current.get(id);
      if (row) {
        pending.current = false;
        row.focus();
      } else {
        pending.current = true;
        reveal(clamped);
      }
    },
    [reveal],
  );

  useEffect(() => {
    if (pending.current) focusAt(cursor.current);
  });

  const step = useCallback(
    (by: number) => {
      const onRow = [...rows.current.values()].some((row) => row === document.activeElement);
      // From outside the list the first press lands on the cursor's own row.
      focusAt(onRow ? cursor.current + by : cursor.current);
    },
    [focusAt],
  );

  // The same handlers for the same row, so memoised rows do not render again for new ones.
  const handlers = useRef(new Map<string, RowHandlers>());
  const register = useCallback((id: string, index: number): RowHandlers => {
    const key = `${index}:${id}`;
    let found = handlers.current.get(key);
    if (!found) {
      if (handlers.current.size > 4 * idsRef.current.length + 100) handlers.current.clear();
      found = {
        rowRef: (element) => {
          if (element) rows.current.set(id, element);
          else rows.current.delete(id);
        },
        onFocus: () => {
          cursor.current = index;
        },
      };
      handlers.current.set(key, found);
    }
    return found;
  }, []);

  return { cursor, focusAt, step, register };
}
