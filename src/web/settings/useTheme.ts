import { useEffect } from "react";
import { useAppStore } from "../store/store.ts";
import { applyTheme } from "./theme.ts";

export function useTheme(): void {
  const theme = useAppStore((s) => s.settings.theme);
  useEffect(() => {
    let storage: Storage | undefined;
    try {
      storage = window.localStorage;
    } catch {
      storage = undefined;
    }
    applyTheme(document.documentElement, theme, storage);
  }, [theme]);
}
