import { createHash, timingSafeEqual } from "node:crypto";
import { parseCookies } from "./cookies.ts";

/** Cookies ignore ports, so each server names its own: two plangates on one host keep both logins. */
export function tokenCookieName(port: number): string {
  return `plangate_token_${port}`;
}

/** Compares in constant time; hashing first makes tokens of different lengths comparable. */
export function tokensMatch(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

export type Credential = { source: "query" | "cookie"; token: string } | { source: "none" };

/** The token a request carries: `?token=` wins over the cookie. */
export function credentialOf(url: URL, cookieHeader: string | undefined, port: number): Credential {
  const query = url.searchParams.get("token");
  if (query !== null) return { source: "query", token: query };
  const cookie = parseCookies(cookieHeader).get(tokenCookieName(port));
  if (cookie !== undefined) return { source: "cookie", token: cookie };
  return { source: "none" };
}

/**
 * R1: the loopback names of this very port, which defeats DNS rebinding, plus the `--public-url`
 * a phone reaches this server through (a tunnel or an HTTPS proxy in front).
 */
export function allowedHosts(port: number, publicUrl?: URL): string[] {
  const hosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  if (publicUrl) hosts.push(publicUrl.host.toLowerCase());
  return hosts;
}

export function hostAllowed(host: string | undefined, port: number, publicUrl?: URL): boolean {
  return host !== undefined && allowedHosts(port, publicUrl).includes(host.toLowerCase());
}

/** R1: a browser always sends Origin on a WebSocket upgrade; it must be this server's page. */
export function originAllowed(origin: string | undefined, port: number, publicUrl?: URL): boolean {
  if (origin === undefined) return true;
  const given = origin.toLowerCase();
  if (publicUrl && given === publicUrl.origin.toLowerCase()) return true;
  return allowedHosts(port).some((host) => given === `http://${host}`);
}

const bilingual = (en: string, zh: string) => `${en}\n\n${zh}\n`;

export const UNAUTHORIZED_PAGE = bilingual(
  "plangate: this page needs its access token. Open the URL that plangate printed in the terminal when it started (it ends with ?token=…).",
  "plangate：访问此页面需要令牌。请打开 plangate 启动时在终端中打印的网址（以 ?token=… 结尾）。",
);

export const FORBIDDEN_PAGE = bilingual(
  "plangate: that access token is wrong. Open the exact URL that plangate printed in the terminal.",
  "plangate：访问令牌不正确。请打开 plangate 在终端中打印的完整网址。",
);

export const NOT_BUILT_PAGE = bilingual(
  "plangate: the web page has not been built yet. Run `npm run build`, or start plangate with `npm start`, which builds it.",
  "plangate：网页尚未构建。请运行 `npm run build`，或使用会自动构建的 `npm start` 启动 plangate。",
);
