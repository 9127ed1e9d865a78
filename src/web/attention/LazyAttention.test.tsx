// @vitest-environment jsdom
import { act, waitFor } from "@testing-library/react";
import { questionRequest, snapshotFrame, stored, welcomeFrame } from "../store/fixtures.ts";
import { renderShell } from "../testing/renderShell.tsx";
import { LazyAttention } from "./LazyAttention.tsx";

function setHidden(hidden: boolean) {
  Object.defineProperty(document, "visibilityState", {
    configurable: true,
    get: () => (hidden ? "hidden" : "visible"),
  });
  document.dispatchEvent(new Event("visibilitychange"));
}

afterEach(() => setHidden(false));

describe("LazyAttention", () => {
  it("[W4] loads the badge code after the first screen and badges a question that waited before it came", async () => {
    document.title = "plangate";
    setHidden(true);
    const { client } = renderShell(<LazyAttention />);
    const request = questionRequest("int_1", "s1");
    act(() => {
      client.receive(
        snapshotFrame("s1", [stored(1, { kind: "interaction.requested", request })], {
          pendingInteractions: 1,
        }),
      );
    });
    // No welcome yet: the first screen is not up, so the attention code is not fetched.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(document.title).toBe("plangate");

    act(() => client.receive(welcomeFrame()));
    await waitFor(() => expect(document.title).toBe("(1) plangate"), { timeout: 3000 });
    act(() => setHidden(false));
    expect(document.title).toBe("plangate");
  });
});
