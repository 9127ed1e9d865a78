import { describe, expect, it } from "vitest";
import { DEVICE_ID_STORAGE_KEY, deviceInfo, deviceLabel } from "./deviceIdentity.ts";

const ANDROID_CHROME =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36";
const IPHONE_SAFARI =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const DESKTOP_FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0";

function memoryStorage() {
  const values = new Map<string, string>();
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
  };
}

describe("device identity", () => {
  it("[U4] labels a device by browser and system", () => {
    expect(deviceLabel(ANDROID_CHROME)).toBe("Chrome on Android");
    expect(deviceLabel(IPHONE_SAFARI)).toBe("Safari on iPhone");
    expect(deviceLabel(DESKTOP_FIREFOX)).toBe("Firefox on Linux");
    expect(deviceLabel("curl/8")).toBe("Browser");
  });

  it("[U4] keeps one id per browser across visits", () => {
    const storage = memoryStorage();
    let n = 0;
    const first = deviceInfo(storage, ANDROID_CHROME, () => `dev-${++n}`);
    const second = deviceInfo(storage, ANDROID_CHROME, () => `dev-${++n}`);
    expect(first).toEqual({ id: "dev-1", label: "Chrome on Android" });
    expect(second.id).toBe("dev-1");
    expect(storage.getItem(DEVICE_ID_STORAGE_KEY)).toBe("dev-1");
  });

  it("[U4] still names the device when storage refuses", () => {
    const refusing = {
      getItem: () => {
        throw new Error("denied");
      },
      setItem: () => {
        throw new Error("denied");
      },
    };
    expect(deviceInfo(refusing, IPHONE_SAFARI, () => "temp")).toEqual({
      id: "temp",
      label: "Safari on iPhone",
    });
  });
});
