import { describe, expect, it, vi } from "vitest";
import { appStore, resetStore } from "../store/store.ts";
import { WebClient } from "./WebClient.ts";

describe("WebClient", () => {
  it("[R2][W2] ends the link on a protocol mismatch with the server's code, so the page can word it itself", () => {
    resetStore();
    const onFatal = vi.fn();
    const client = new WebClient(appStore, { send: () => true }, { onFatal });
    const message = "This server speaks protocol 4, the page speaks 3. Reload the page.";
    client.receive({ type: "error", code: "PROTOCOL_MISMATCH", message });
    expect(onFatal).toHaveBeenCalledWith(message, "PROTOCOL_MISMATCH");
    client.receive({ type: "error", code: "SESSION_NOT_FOUND", message: "No such session." });
    expect(onFatal).toHaveBeenCalledTimes(1);
  });
});
