import { parseCookies, serializeCookie } from "./cookies.ts";

describe("[R1] cookie header parsing", () => {
  it("reads name=value pairs with spaces, quotes and encoding", () => {
    const cookies = parseCookies(' a=1; plangate_token = "abc" ; enc=x%20y; bad%=%E0%A4%A');
    expect(cookies.get("a")).toBe("1");
    expect(cookies.get("plangate_token")).toBe("abc");
    expect(cookies.get("enc")).toBe("x y");
    expect(cookies.get("bad%")).toBe("%E0%A4%A");
  });

  it("skips malformed pairs and keeps the first of a repeated name", () => {
    const cookies = parseCookies("novalue; =x; ;t=first; t=second; empty=");
    expect([...cookies.entries()]).toEqual([
      ["t", "first"],
      ["empty", ""],
    ]);
    expect(parseCookies(undefined).size).toBe(0);
    expect(parseCookies("").size).toBe(0);
  });

  it("writes a cookie the parser reads back", () => {
    const header = serializeCookie("plangate_token", "a b", { httpOnly: true, sameSite: "Strict" });
    expect(header).toBe("plangate_token=a%20b; Path=/; HttpOnly; SameSite=Strict");
    expect(parseCookies(header.split(";")[0]).get("plangate_token")).toBe("a b");
  });
});
