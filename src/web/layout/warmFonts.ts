import { whenIdle } from "./whenIdle.ts";

// The first text laid out in a new font strike (family, size, weight, style) waits on a
// blocking call to the browser process for that font's render settings (on Linux:
// WebSandboxSupportLinux::GetWebFontRenderStyleForStrike). A first plan card uses a dozen
// strikes at once: 40–50 ms of its first layout, the longest task of a page's first plan
// (bench/experiments/planTasks.ts). Once the first screen is up, a hidden sample lays out the
// strikes the cards use, a few per idle callback, so the first card does not wait for them.
const FAMILIES = ["var(--font)", "var(--mono)"];
// Card text 12–16 px; the plan body is 14 px: code 0.9em, h1 1.35em, h2 1.2em, h3/h4 1.05em.
const SIZES = [12, 12.5, 12.6, 13, 14, 14.7, 15, 16, 16.8, 18.9];
const FACES: [weight: string, style: string][] = [
  ["400", "normal"],
  ["600", "normal"],
  ["700", "normal"],
  ["400", "italic"],
];
const PER_STEP = 3;
const IDLE_TIMEOUT_MS = 2000;

/** Lays out a hidden sample of every strike the cards use, over several idle callbacks. */
export function warmFonts(): void {
  const strikes = FAMILIES.flatMap((family) =>
    SIZES.flatMap((size) => FACES.map(([weight, style]) => ({ family, size, weight, style }))),
  );
  const host = document.createElement("div");
  host.setAttribute("aria-hidden", "true");
  host.style.cssText =
    "position:fixed;left:0;top:0;width:1px;height:1px;overflow:hidden;visibility:hidden;pointer-events:none;contain:strict";
  document.body.append(host);
  let next = 0;
  const step = () => {
    for (const end = Math.min(strikes.length, next + PER_STEP); next < end; next++) {
      const { family, size, weight, style } = strikes[next] ?? strikes[0]!;
      const span = document.createElement("span");
      span.style.fontFamily = family;
      span.style.fontSize = `${size}px`;
      span.style.fontWeight = weight;
      span.style.fontStyle = style;
      span.textContent = "Plan 1.";
      host.append(span);
    }
    // Laid out now, in this idle callback: that is what fetches the strikes' settings.
    host.getBoundingClientRect();
    if (next < strikes.length) whenIdle(step, IDLE_TIMEOUT_MS);
    else host.remove();
  };
  whenIdle(step, IDLE_TIMEOUT_MS);
}
