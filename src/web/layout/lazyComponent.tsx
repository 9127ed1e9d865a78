import { type ComponentType, lazy, type ReactNode, Suspense } from "react";

/**
 * A component whose code is its own chunk, for parts no first card needs (issue 15): `prefetch`
 * fetches it (main.tsx does once the first screen is painted); until it is in, `Component`
 * shows `fallback`; after, it renders directly (a lazy() boundary would suspend once per mount).
 * A failed fetch is tried again by the next caller.
 */
export function lazyComponent<P extends object>(
  load: () => Promise<ComponentType<P>>,
  fallback: ReactNode = null,
): { Component: ComponentType<P>; prefetch(): Promise<unknown> } {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<{ default: ComponentType<P> }> | null = null;
  const prefetch = () => {
    loading ??= load().then(
      (component) => {
        loaded = component;
        return { default: component };
      },
      (error: unknown) => {
        loading = null;
        throw error;
      },
    );
    return loading;
  };
  const Lazy = lazy(prefetch);
  // biome-ignore lint/correctness/noComponentHookFactories: made once per module, at import time
  function Deferred(props: P) {
    const Loaded = loaded;
    if (Loaded) return <Loaded {...props} />;
    return (
      <Suspense fallback={fallback}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  return { Component: Deferred, prefetch };
}
