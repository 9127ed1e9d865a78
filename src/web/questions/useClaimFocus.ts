import { type RefObject, useEffect } from "react";

/** Focus is on the page body, or in an empty message box that says it yields to a card. */
export function focusIsIdle(): boolean {
  const active = document.activeElement;
  return (
    active === null ||
    active === document.body ||
    active.getAttribute("data-yields-focus") === "true"
  );
}

/**
 * A card arriving while the user waits (focus on the body, or in an empty message box that
 * says it yields) takes focus, so the keyboard reaches it at once; focus is never pulled
 * away from text the user is typing or from anywhere else they are working.
 */
export function useClaimFocus(ref: RefObject<HTMLElement | null>) {
  useEffect(() => {
    // In the next frame, before its layout: focus() lays the page out at once, and in the task
    // that commits the card that was a second whole-page layout (tens of ms on a long plan).
    const frame = requestAnimationFrame(() => {
      // No scroll into view: the card is laid out in view (W6).
      if (focusIsIdle()) ref.current?.focus({ preventScroll: true });
    });
    return () => cancelAnimationFrame(frame);
  }, [ref]);
}
