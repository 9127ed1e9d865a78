import { type RefObject, useEffect } from "react";

/**
 * A card arriving while the user waits (focus on the body, or in an empty message box that
 * says it yields) takes focus, so the keyboard reaches it at once; focus is never pulled
 * away from text the user is typing or from anywhere else they are working.
 */
export function useClaimFocus(ref: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const active = document.activeElement;
    const idle =
      active === null ||
      active === document.body ||
      active.getAttribute("data-yields-focus") === "true";
    if (idle) ref.current?.focus();
  }, [ref]);
}
