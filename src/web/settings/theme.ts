import type { Settings } from "../../protocol/index.ts";

export const THEME_STORAGE_KEY = "plangate.theme";

type Theme = Settings["theme"];

/** The last theme the server told us, so the next visit starts in it before welcome. */
export function cachedTheme(storage: Storage | undefined): Theme {
  try {
    const value = storage?.getItem(THEME_STORAGE_KEY);
    return value === "light" || value === "dark" ? value : "system";
  } catch {
    return "system";
  }
}

export function applyTheme(root: HTMLElement, theme: Theme, storage: Storage | undefined): void {
  root.dataset.theme = theme;
  try {
    storage?.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Without storage the theme still applies; it just isn't remembered.
  }
}
