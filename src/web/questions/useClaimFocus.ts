import { type RefObject, useEffect } from "react";

/**
 * The card replaces the composer, which may have held focus; pull focus in only when it
 * was dropped on the body, never away from where the user is working.
 */
export function useClaimFocus(ref: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const active = document.activeElement;
    if (active === null || active === document.body) ref.current?.focus();
  }, [ref]);
}
