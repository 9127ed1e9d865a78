import { useEffect, useState } from "react";
import { afterFirstScreen } from "../layout/afterFirstScreen.ts";
import { lazyComponent } from "../layout/lazyComponent.tsx";
import { appStore, useAppStore } from "../store/store.ts";

const watcher = lazyComponent(() => import("./AttentionWatcher.tsx").then((m) => m.default));

/**
 * W4 only matters once something waits while the tab is hidden, so its code (title badge,
 * notifications) is fetched after the first screen is painted, not before the first card
 * (issue 15). A question already waiting then is badged at once: the watcher's first check
 * sees the whole store. A fetch that fails while the server is away is tried again when the
 * connection opens again.
 */
export function LazyAttention() {
  const [ready, setReady] = useState(false);
  const connection = useAppStore((s) => s.connection.status);
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
  return <watcher.Component retryKey={connection === "open"} />;
}
