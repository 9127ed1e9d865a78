import { sep } from "node:path";

/** The build names every file under `assets/` by its content hash (vite.config.ts). */
const HASHED = `${sep}assets${sep}`;

/**
 * Caching and content negotiation for the built page's files. A hashed asset never changes
 * under its name, so a browser keeps it a year without asking again; anything else (sw.js,
 * the manifest, icons) is checked on every load. The body depends on Accept-Encoding (the
 * build's .br/.gz copies), which a cache must know.
 */
export function setStaticHeaders(
  response: { setHeader(name: string, value: string): unknown },
  path: string,
): void {
  response.setHeader("vary", "accept-encoding");
  response.setHeader(
    "cache-control",
    path.includes(HASHED) ? "public, max-age=31536000, immutable" : "no-cache",
  );
}
