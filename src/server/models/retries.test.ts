import { ModelError } from "./provider.ts";
import { modelEndpoint, retryAfterMs } from "./providerErrors.ts";
import { backoffMs, withRetries } from "./retries.ts";

const endpoint = modelEndpoint("http://127.0.0.1:9/v1", "/chat/completions", undefined);

describe("retries (M1)", () => {
  it("[M1] reads the wait a server asks for in milliseconds, seconds or as a date", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterMs(new Headers({ "retry-after-ms": "250" }), now)).toBe(250);
    expect(retryAfterMs(new Headers({ "retry-after": "3" }), now)).toBe(3_000);
    expect(retryAfterMs(new Headers({ "retry-after": "Thu, 01 Jan 2026 00:00:05 GMT" }), now)).toBe(
      5_000,
    );
    expect(retryAfterMs(new Headers({ "retry-after": "soon" }), now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });

  it("[M1] backs off from half a second, doubling, to at most 8 s", () => {
    expect([0, 1, 2, 3, 4, 5].map(backoffMs)).toEqual([500, 1_000, 2_000, 4_000, 8_000, 8_000]);
  });

  it("[M1] sends again only what is worth sending again, and says nothing otherwise", async () => {
    const notices: unknown[] = [];
    let calls = 0;
    const refused = new ModelError("auth", {
      code: "model.auth",
      params: { endpoint: endpoint.name },
    });
    const attempt = withRetries(
      async () => {
        calls += 1;
        throw refused;
      },
      {
        maxRetries: 3,
        signal: new AbortController().signal,
        endpoint,
        onNotice: (n) => notices.push(n),
      },
    );
    await expect(attempt).rejects.toBe(refused);
    expect(calls).toBe(1);
    expect(notices).toEqual([]);
  });
});
