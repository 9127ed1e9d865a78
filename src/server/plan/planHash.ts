import { createHash } from "node:crypto";

/** V8: names a plan revision's text, so an approval can say which text it approves. */
export function planContentHash(plan: string): string {
  return createHash("sha256").update(plan, "utf8").digest("hex").slice(0, 32);
}
