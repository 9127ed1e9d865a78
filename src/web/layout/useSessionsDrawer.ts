import { type RefObject, useEffect, useRef, useState } from "react";

/** Where focus goes once the drawer has closed (W11): back to its toggle, or on to the session. */
export type AfterClose = "toggle" | "main";

export type SessionsDrawer = {
  /** Absent beside the list (a wide window, or a phone's home page with the list as its content). */
  state: "open" | "closed" | undefined;
  open(): void;
  /** `null`: focus stays where it is (something else takes it). */
  close(then: AfterClose | null): void;
  navRef: RefObject<HTMLElement | null>;
  toggleRef: RefObject<HTMLButtonElement | null>;
};

/**
 * U2/W6: on a phone an open session (or the inbox, or the settings) has the whole screen, so a
 * waiting card gets the height; the session list waits behind a toggle in the header.
 * `collapsible` says when it does; a change of `shown` (another session, another page) closes it.
 */
export function useSessionsDrawer(collapsible: boolean, shown: unknown): SessionsDrawer {
  const [open, setOpen] = useState(false);
  const afterClose = useRef<AfterClose | null>(null);
  const navRef = useRef<HTMLElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const isOpen = collapsible && open;

  // biome-ignore lint/correctness/useExhaustiveDependencies: closes whenever what is shown changes
  useEffect(() => {
    setOpen(false);
  }, [shown, collapsible]);

  useEffect(() => {
    if (isOpen) {
      const nav = navRef.current;
      const first =
        nav?.querySelector<HTMLElement>('[aria-current="page"]') ??
        nav?.querySelector<HTMLElement>("button:not(:disabled)");
      first?.focus();
      return;
    }
    const then = afterClose.current;
    afterClose.current = null;
    if (then === "toggle") toggleRef.current?.focus();
    else if (then === "main") document.getElementById("main")?.focus();
  }, [isOpen]);

  return {
    state: collapsible ? (isOpen ? "open" : "closed") : undefined,
    open: () => setOpen(true),
    close: (then) => {
      afterClose.current = then;
      setOpen(false);
    },
    navRef,
    toggleRef,
  };
}
