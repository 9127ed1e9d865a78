import { createECDH } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

export const VAPID_FILE = "push-vapid.json";

/**
 * U3: the server's VAPID key pair, made on first start and kept in `.zcode/` readable by the
 * owner alone (R9: no tool returns it). A broken file stops the start rather than silently
 * replacing keys every subscribed device already trusts.
 */
export function loadOrCreateVapidKeys(zcodeDir: string): VapidKeys {
  const path = join(zcodeDir, VAPID_FILE);
  if (existsSync(path)) {
    const parsed = JSON.parse(readFileSync(path, "utf8")) as Partial<VapidKeys>;
    if (typeof parsed.publicKey !== "string" || typeof parsed.privateKey !== "string") {
      throw new Error(`${path} holds no VAPID key pair; remove it to make a new one.`);
    }
    return { publicKey: parsed.publicKey, privateKey: parsed.privateKey };
  }
  mkdirSync(zcodeDir, { recursive: true });
  const keys = generateVapidKeys();
  writeFileSync(path, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600, flag: "wx" });
  chmodSync(path, 0o600);
  return keys;
}

/**
 * What web-push's `generateVAPIDKeys` makes (a P-256 pair, base64url, zero-padded to 65 and 32
 * bytes), without loading web-push at start-up: it is needed only to send a push.
 */
export function generateVapidKeys(): VapidKeys {
  const curve = createECDH("prime256v1");
  curve.generateKeys();
  const padded = (key: Buffer, length: number) =>
    key.length < length ? Buffer.concat([Buffer.alloc(length - key.length), key]) : key;
  return {
    publicKey: padded(curve.getPublicKey(), 65).toString("base64url"),
    privateKey: padded(curve.getPrivateKey(), 32).toString("base64url"),
  };
}
