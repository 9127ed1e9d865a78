import { useMediaQuery } from "./useMediaQuery.ts";

/** The width at which the shell stacks (layout.css: its max-width: 560px rules). */
const PHONE = "(max-width: 560px)";

export function usePhoneLayout(): boolean {
  return useMediaQuery(PHONE);
}
