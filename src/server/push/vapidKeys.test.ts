import { createECDH } from "node:crypto";
import { statSync } from "node:fs";
import { join } from "node:path";
import webPush from "web-push";
import { tempDir } from "../testing/helpers.ts";
import { generateVapidKeys, loadOrCreateVapidKeys, VAPID_FILE } from "./vapidKeys.ts";

describe("[U3] the server's VAPID keys", () => {
  it("are a P-256 pair that web-push accepts, made as web-push makes them", () => {
    for (let i = 0; i < 20; i++) {
      const keys = generateVapidKeys();
      expect(Buffer.from(keys.publicKey, "base64url")).toHaveLength(65);
      expect(Buffer.from(keys.privateKey, "base64url")).toHaveLength(32);
      const curve = createECDH("prime256v1");
      curve.setPrivateKey(Buffer.from(keys.privateKey, "base64url"));
      expect(curve.getPublicKey().toString("base64url")).toBe(keys.publicKey);
      expect(() =>
        webPush.setVapidDetails("mailto:plangate@localhost", keys.publicKey, keys.privateKey),
      ).not.toThrow();
    }
  });

  it("are made once, kept owner-only, and read back on the next start", () => {
    const dir = tempDir();
    try {
      const made = loadOrCreateVapidKeys(join(dir.path, ".zcode"));
      const file = join(dir.path, ".zcode", VAPID_FILE);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(loadOrCreateVapidKeys(join(dir.path, ".zcode"))).toEqual(made);
    } finally {
      dir.remove();
    }
  });
});
