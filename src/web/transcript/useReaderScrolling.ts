import { type RefObject, useCallback, useEffect, useRef } from "react";

// A wheel, key or touch scroll animates for a few hundred ms after its input.
const READER_SCROLL_MS = 1000;
const SCROLL_KEYS = new Set(["ArrowUp", "ArrowDown", "PageUp", "PageDown", "Home", "End", " "]);

/**
 * Whether a scroll of the element now is the reader's: a wheel, touch, scrollbar drag or scroll
 * key came just before it. The browser scrolls on its own too: it clamps the offset whenever the
 * scroller grows past its content (a card leaving the composer area), and that scroll's event
 * can arrive after the scroller has shrunk again, looking like a move up.
 */
export function useReaderScrolling(scroller: RefObject<HTMLElement | null>): () => boolean {
  const lastInput = useRef(Number.NEGATIVE_INFINITY);
  const pressed = useRef(false);
  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const mark = () => {
      lastInput.current = performance.now();
    };
    const press = () => {
      pressed.current = true;
      mark();
    };
    const release = () => {
      if (!pressed.current) return;
      pressed.current = false;
      mark();
    };
    // Keys typed into a field (a space in the message box) scroll nothing here.
    const key = (event: KeyboardEvent) => {
      if (SCROLL_KEYS.has(event.key) && !isEditable(event.target)) mark();
    };
    element.addEventListener("wheel", mark, { passive: true });
    element.addEventListener("touchmove", mark, { passive: true });
    element.addEventListener("pointerdown", press);
    window.addEventListener("pointerup", release);
    window.addEventListener("pointercancel", release);
    window.addEventListener("keydown", key);
    return () => {
      element.removeEventListener("wheel", mark);
      element.removeEventListener("touchmove", mark);
      element.removeEventListener("pointerdown", press);
      window.removeEventListener("pointerup", release);
      window.removeEventListener("pointercancel", release);
      window.removeEventListener("keydown", key);
    };
  }, [scroller]);
  return useCallback(
    () => pressed.current || performance.now() - lastInput.current < READER_SCROLL_MS,
    [],
  );
}

function isEditable(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || target.matches("input, textarea, select"))
  );
}
