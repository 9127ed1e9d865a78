import { randomBytes } from "node:crypto";

const alphabet = "abcdefghijklmnopqrstuvwxyz234567";

/** A random base32 id with a readable prefix, e.g. `sess_k3v…`. */
export function randomId(prefix: string, bytes = 10): string {
  let text = "";
  for (const byte of randomBytes(bytes)) text += alphabet[byte & 31];
  return `${prefix}${text}`;
}

export const newSessionId = (): string => randomId("sess_", 16);
