import { checkAccess } from "./checkAccess.ts";

const answering = (status: number) => (async () => new Response(null, { status })) as typeof fetch;

describe("checkAccess", () => {
  it("[W8] reads 401 and 403 as a refused token, 204 as fine and no answer as a server that is down", async () => {
    expect(await checkAccess(answering(401))).toBe("refused");
    expect(await checkAccess(answering(403))).toBe("refused");
    expect(await checkAccess(answering(204))).toBe("ok");
    expect(await checkAccess(answering(502))).toBe("unreachable");
    const down = (async () => {
      throw new TypeError("Failed to fetch");
    }) as typeof fetch;
    expect(await checkAccess(down)).toBe("unreachable");
  });
});
