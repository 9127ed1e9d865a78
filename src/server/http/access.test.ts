import { type AccessRequest, type AccessServer, decideAccess } from "./access.ts";

const PORT = 4700;
const OWNER = "o".repeat(64);
const ALICE = "a".repeat(64);
const MALLORY = "m".repeat(64);
const people: Record<string, string> = { [ALICE]: "Alice", [MALLORY]: "Mallory" };
const server: AccessServer = { token: OWNER, port: PORT, personOf: (token) => people[token] };
const cookie = (token: string) => `plangate_token_${PORT}=${token}`;

function open(
  query: string,
  site: string | undefined,
  heldCookie?: string,
): ReturnType<typeof decideAccess> {
  const request: AccessRequest = {
    method: "GET",
    url: `/?token=${query}`,
    route: "page",
    headers: {
      host: `127.0.0.1:${PORT}`,
      cookie: heldCookie,
      "sec-fetch-dest": "document",
      "sec-fetch-site": site,
    },
  };
  return decideAccess(request, server);
}

describe("[R7][S3] a link that would sign this browser in as someone else", () => {
  it("[R7][S3] followed from another site (a page on another port), keeps the person signed in as they are", () => {
    for (const site of ["same-site", "cross-site"]) {
      const decision = open(MALLORY, site, cookie(ALICE));
      expect(decision, site).toEqual({ type: "allow", person: "Alice" });
    }
    expect(open(MALLORY, "cross-site", cookie(OWNER))).toEqual({ type: "allow" });
  });

  it("[R7][S3] typed or pasted into the address bar, switches: the person chose it", () => {
    const decision = open(MALLORY, "none", cookie(ALICE));
    expect(decision.type).toBe("redirect");
    expect(decision.type === "redirect" && decision.setCookie).toContain(MALLORY);
  });

  it("[R7] from another site, still signs in a browser whose cookie is missing or no longer valid", () => {
    for (const held of [undefined, cookie("stale".repeat(10))]) {
      const decision = open(ALICE, "cross-site", held);
      expect(decision.type, String(held)).toBe("redirect");
      expect(decision.type === "redirect" && decision.setCookie).toContain(ALICE);
    }
  });

  it("[R7] from another site, the same sign-in again only takes the token out of the address bar", () => {
    const decision = open(ALICE, "cross-site", cookie(ALICE));
    expect(decision).toMatchObject({ type: "redirect", location: "/" });
    expect(decision.type === "redirect" && decision.setCookie).toContain(ALICE);
  });
});
