import { useMediaQuery } from "../../layout/useMediaQuery.ts";

/** Comments sit in a margin beside the plan from this window width on; below their block under it. */
const WIDE = "(min-width: 1000px)";

export function useMarginLayout(): boolean {
  return useMediaQuery(WIDE);
}
