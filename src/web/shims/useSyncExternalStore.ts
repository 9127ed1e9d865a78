// react-i18next imports `use-sync-external-store/shim`, which on React 18+ hands back React's own
// hook; the build points it here so the page carries no copy of the fallback (issue 15).
export { useSyncExternalStore } from "react";
