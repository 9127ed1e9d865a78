import type { DeviceInfo } from "../../protocol/index.ts";

export const DEVICE_ID_STORAGE_KEY = "plangate.deviceId";

const BROWSERS: [RegExp, string][] = [
  [/Edg\//, "Edge"],
  [/OPR\//, "Opera"],
  [/Firefox\/|FxiOS\//, "Firefox"],
  [/Chrome\/|CriOS\/|Chromium\//, "Chrome"],
  [/Safari\//, "Safari"],
];

const SYSTEMS: [RegExp, string][] = [
  [/iPhone/, "iPhone"],
  [/iPad/, "iPad"],
  [/Android/, "Android"],
  [/Windows/, "Windows"],
  [/Mac OS X|Macintosh/, "Mac"],
  [/CrOS/, "ChromeOS"],
  [/Linux/, "Linux"],
];

/** U4: "Chrome on Android", "Safari on iPhone": enough to tell a person's devices apart. */
export function deviceLabel(userAgent: string): string {
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1] ?? "Browser";
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  return system ? `${browser} on ${system}` : browser;
}

/** U4: this browser's id, made once and kept in its storage; a fresh one when storage refuses. */
export function deviceInfo(
  storage: Pick<Storage, "getItem" | "setItem"> | undefined,
  userAgent: string,
  newId: () => string = () => crypto.randomUUID(),
): DeviceInfo {
  let id: string | null = null;
  try {
    id = storage?.getItem(DEVICE_ID_STORAGE_KEY) ?? null;
    if (!id) {
      id = newId();
      storage?.setItem(DEVICE_ID_STORAGE_KEY, id);
    }
  } catch {
    id ??= newId();
  }
  return { id: id.slice(0, 100), label: deviceLabel(userAgent).slice(0, 120) };
}
