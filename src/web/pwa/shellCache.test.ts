import { describe, expect, it } from "vitest";
import { shellRule } from "./shellCache.ts";

const origin = "http://127.0.0.1:7420";
const get = (path: string, mode = "cors") => ({ method: "GET", url: `${origin}${path}`, mode });

describe("service worker cache rule", () => {
  it("[U2] keeps the page, its hashed assets, the manifest and the icon", () => {
    expect(shellRule(get("/", "navigate"), origin)).toBe("page");
    expect(shellRule(get("/index.html"), origin)).toBe("page");
    expect(shellRule(get("/assets/index-abc123.js"), origin)).toBe("asset");
    expect(shellRule(get("/manifest.webmanifest"), origin)).toBe("asset");
    expect(shellRule(get("/icon.svg"), origin)).toBe("asset");
  });

  it("[U2] never keeps the socket, MCP, API routes, token links, writes or other origins", () => {
    for (const path of ["/ws", "/mcp", "/api/push/subscribe", "/push/key", "/?token=abc", "/s/x"]) {
      expect(shellRule(get(path), origin)).toBe("network");
    }
    expect(shellRule(get("/some/route", "navigate"), origin)).toBe("network");
    expect(shellRule({ method: "POST", url: `${origin}/assets/x.js` }, origin)).toBe("network");
    expect(shellRule({ method: "GET", url: "https://cdn.example/assets/x.js" }, origin)).toBe(
      "network",
    );
  });
});
