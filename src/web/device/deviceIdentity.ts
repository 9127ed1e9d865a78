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

const ANY_BROWSER = "Browser";

/** U4: "Chrome on Android", "Safari on iPhone": enough to tell a person's devices apart. */
export function deviceLabel(userAgent: string): string {
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1] ?? ANY_BROWSER;
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  return system ? `${browser} on ${system}` : browser;
}

const MADE_HERE = new RegExp(
  `^(${[...BROWSERS.map(([, name]) => name), ANY_BROWSER].join("|")})(?: on (${SYSTEMS.map(([, name]) => name).join("|")}))?$`,
);

/**
 * U4: a label `deviceLabel` made is stored in English; read back, it is split so each reader's
 * language can word it. Any other label (another client's) comes back as it is.
 */
export function deviceLabelParts(
  label: string,
): { browser: string; system?: string; anyBrowser: boolean } | undefined {
  const match = MADE_HERE.exec(label);
  if (!match) return undefined;
  const [, browser, system] = match;
  return {
    browser: browser!,
    ...(system === undefined ? {} : { system }),
    anyBrowser: browser === ANY_BROWSER,
  };
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
