import { useLayoutEffect } from "react";

export interface InboxKeyActions {
  next(): void;
  previous(): void;
  toggleHelp(): void;
  closeHelp(): void;
}

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    target.closest("input, textarea, select, [data-inbox-card]") !== null
  );
}

/**
 * U1 triage keys: j / k move between items, ? shows the shortcuts, Escape hides them. Enter
 * opens the focused item by itself (it is a button). Keys typed into a card stay the card's.
 * Listening from the commit that puts the list in the document (a layout effect): a passive
 * effect runs in a later task, and Chromium may paint the list and dispatch a key first, so a
 * j pressed as the list appeared was lost.
 */
export function useInboxKeys(actions: InboxKeyActions): void {
  useLayoutEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      if (event.key === "Escape") return actions.closeHelp();
      if (isTyping(event.target)) return;
      const action =
        event.key === "j"
          ? actions.next
          : event.key === "k"
            ? actions.previous
            : event.key === "?"
              ? actions.toggleHelp
              : undefined;
      if (!action) return;
      event.preventDefault();
      action();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [actions]);
}
