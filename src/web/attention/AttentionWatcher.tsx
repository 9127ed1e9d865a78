import { useClient } from "../client/ClientContext.tsx";
import { useAttention } from "./useAttention.ts";

/** The attention chunk's entry: W4's badge and notifications, mounted by LazyAttention. */
export default function AttentionWatcher() {
  useAttention(useClient());
  return null;
}
