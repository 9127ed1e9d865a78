import { type ComponentType, type ReactNode, useEffect, useState } from "react";

/**
 * A component whose code is its own chunk, for parts no first card needs (issue 15): `prefetch`
 * fetches it (main.tsx does once the first screen is painted); until it is in, `Component`
 * shows `fallback`; after, it renders directly. Not React.lazy: a lazy() keeps a failed fetch
 * and throws it into the tree, and with no boundary above that blanks the whole page (a chunk
 * asked for while the server restarts). A failed fetch keeps the fallback; the next mount, or
 * `retryKey` changing, fetches again.
 */
export function lazyComponent<P extends object>(
  load: () => Promise<ComponentType<P>>,
  fallback: ReactNode = null,
): {
  Component: ComponentType<P & { retryKey?: unknown }>;
  prefetch(): Promise<void>;
} {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  const fetchCode = () => {
    loading ??= load().then(
      (component) => {
        loaded = component;
        return component;
      },
      (error: unknown) => {
        loading = null;
        throw error;
      },
    );
    return loading;
  };
  // Settles with nothing: a component handed back from a hook (a test's beforeAll) gets called.
  const prefetch = () => fetchCode().then(() => {});
  // biome-ignore lint/correctness/noComponentHookFactories: made once per module, at import time
  function Deferred({ retryKey, ...props }: P & { retryKey?: unknown }) {
    const [, setArrived] = useState(0);
    const Loaded = loaded;
    // biome-ignore lint/correctness/useExhaustiveDependencies: a new retryKey asks for another fetch
    useEffect(() => {
      if (Loaded) return;
      let live = true;
      fetchCode().then(
        () => live && setArrived((n) => n + 1),
        () => {}, // the fallback stays; a later mount or retryKey fetches again
      );
      return () => {
        live = false;
      };
    }, [Loaded, retryKey]);
    if (Loaded) return <Loaded {...(props as P)} />;
    return fallback;
  }
  return { Component: Deferred, prefetch };
}
