import { createContext, type ReactNode, useContext, useEffect, useMemo, useRef } from "react";

/**
 * A subtree that has left the screen but is still mounted, hidden, so a part of it too large to
 * remove in one task (a long plan: tens of thousands of DOM nodes, ~50 ms to detach at once)
 * can take itself down in steps. Each such part holds the scope until it is empty.
 */
export interface Teardown {
  leaving: boolean;
  /** Keeps the scope mounted until the returned release is called (idempotent). */
  hold(): () => void;
}

const TeardownContext = createContext<Teardown | null>(null);

export function useTeardown(): Teardown | null {
  return useContext(TeardownContext);
}

/** Calls `onDone` once `leaving` is set and no part holds it: the subtree may then unmount. */
export function TeardownScope({
  leaving,
  onDone,
  children,
}: {
  leaving: boolean;
  onDone: () => void;
  children: ReactNode;
}) {
  const holds = useRef(0);
  const leavingRef = useRef(leaving);
  leavingRef.current = leaving;
  const onDoneRef = useRef(onDone);
  onDoneRef.current = onDone;
  const value = useMemo<Teardown>(
    () => ({
      leaving,
      hold() {
        holds.current += 1;
        let released = false;
        return () => {
          if (released) return;
          released = true;
          holds.current -= 1;
          if (holds.current === 0 && leavingRef.current) onDoneRef.current();
        };
      },
    }),
    [leaving],
  );
  // Passive: it runs after the parts' layout effects have taken their holds.
  useEffect(() => {
    if (leaving && holds.current === 0) onDoneRef.current();
  }, [leaving]);
  return <TeardownContext.Provider value={value}>{children}</TeardownContext.Provider>;
}
