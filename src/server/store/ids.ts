import { randomBytes } from "node:crypto";

const alphabet = "abcdefghijklmnopqrstuvwxyz234567";

/**
 * A random base32 id with a readable prefix, e.g. `sess_k3v…`. Joined, not concatenated: a
 * string built with `+` is a rope of its parts, twice the bytes of the flat string for as long
 * as the id is kept (issue 15: thousands of waiting calls keep two ids each).
 */
export function randomId(prefix: string, bytes = 10): string {
  const characters = [prefix];
  for (const byte of randomBytes(bytes)) characters.push(alphabet[byte & 31] as string);
  return characters.join("");
}

export const newSessionId = (): string => randomId("sess_", 16);
