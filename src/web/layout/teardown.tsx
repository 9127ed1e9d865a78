import { createContext, type ReactNode, useContext, useEffect, useMemo, useRef } from "react";

/**
 * A subtree that has left the screen but is still mounted, hidden, so a part of it too large to
 * remove in one task (a long plan: tens of thousands of DOM nodes, ~50 ms to detach at once)
 * can take itself down in steps. Each such part holds the scope until it is empty.
 */
export interface Teardown {
  /** This scope or one around it is leaving. */
  leaving: boolean;
  /** Keeps the scope, and those around it, mounted until the returned release is called (idempotent). */
  hold(): () => void;
}

const TeardownContext = createContext<Teardown | null>(null);

export function useTeardown(): Teardown | null {
  return useContext(TeardownContext);
}

/**
 * Calls `onDone` once its own `leaving` is set and no part holds it: the subtree may then
 * unmount. A scope inside a leaving one leaves with it (a session pane switched away takes its
 * cards' plans down too), and a hold on it holds the outer scopes as well.
 */
export function TeardownScope({
  leaving,
  onDone,
  children,
}: {
  leaving: boolean;
  onDone: () => void;
  children: ReactNode;
}) {
  const outer = useTeardown();
  const outerRef = useRef(outer);
  outerRef.current = outer;
  const effective = leaving || (outer?.leaving ?? false);
  const holds = useRef(0);
  const leavingRef = useRef(leaving);
  leavingRef.current = leaving;
  const onDoneRef = useRef(onDone);
  onDoneRef.current = onDone;
  // Keyed on `effective` alone: a part's hold survives the outer scope re-rendering.
  const value = useMemo<Teardown>(
    () => ({
      leaving: effective,
      hold() {
        holds.current += 1;
        const releaseOuter = outerRef.current?.hold();
        let released = false;
        return () => {
          if (released) return;
          released = true;
          holds.current -= 1;
          if (holds.current === 0 && leavingRef.current) onDoneRef.current();
          releaseOuter?.();
        };
      },
    }),
    [effective],
  );
  // Passive: it runs after the parts' layout effects have taken their holds.
  useEffect(() => {
    if (leaving && holds.current === 0) onDoneRef.current();
  }, [leaving]);
  return <TeardownContext.Provider value={value}>{children}</TeardownContext.Provider>;
}
