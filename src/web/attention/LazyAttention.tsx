import { lazy, Suspense, useEffect, useState } from "react";
import { afterFirstScreen } from "../layout/afterFirstScreen.ts";
import { appStore } from "../store/store.ts";

const AttentionWatcher = lazy(() => import("./AttentionWatcher.tsx"));

/**
 * W4 only matters once something waits while the tab is hidden, so its code (title badge,
 * notifications) is fetched after the first screen is painted, not before the first card
 * (issue 15). A question already waiting then is badged at once: the watcher's first check
 * sees the whole store.
 */
export function LazyAttention() {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let mounted = true;
    afterFirstScreen(appStore, () => {
      if (mounted) setReady(true);
    });
    return () => {
      mounted = false;
    };
  }, []);
  if (!ready) return null;
  return (
    <Suspense fallback={null}>
      <AttentionWatcher />
    </Suspense>
  );
}
