import { type ComponentType, lazy, Suspense } from "react";

/**
 * Issue 15: a card whose code is its own chunk, so a page whose first card is another kind never
 * fetches it. Once the chunk is in, the card renders directly (a lazy() boundary would still
 * suspend once per mount); until then, which happens only when such a card is the first the
 * page shows, nothing is drawn rather than a "Loading" placeholder.
 */
export function lazyCard<Props extends object>(
  load: () => Promise<ComponentType<Props>>,
  /** Started alongside the chunk when a card mounts before it is in, e.g. the markdown parser. */
  alongside?: () => Promise<unknown>,
): { Card: ComponentType<Props>; prefetch: () => Promise<unknown> } {
  let loaded: ComponentType<Props> | null = null;
  let loading: Promise<{ default: ComponentType<Props> }> | null = null;
  const prefetch = () => {
    loading ??= load().then(
      (component) => {
        loaded = component;
        return { default: component };
      },
      (error: unknown) => {
        loading = null; // a failed fetch is tried again by the next caller
        throw error;
      },
    );
    return loading;
  };
  const Lazy = lazy(() => {
    alongside?.().catch(() => {});
    return prefetch();
  });
  function Card(props: Props) {
    const Loaded = loaded;
    if (Loaded) return <Loaded {...props} />;
    return (
      <Suspense fallback={null}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  return { Card, prefetch };
}
