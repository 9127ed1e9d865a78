// @vitest-environment jsdom
import { render, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { Markdown } from "./Markdown.tsx";

vi.mock("./entityTable.ts", () => {
  throw new Error("offline");
});

describe("named entities without the full table (R5, issue 15)", () => {
  it("[R5] a failed fetch of the table renders the plan with its rare names as written", async () => {
    const { container } = render(<Markdown text={"# Bounds &ngE;\n\nA &amp; B"} />);
    await waitFor(() => expect(container.querySelector(".markdown-plain")).toBeNull());
    expect(container.querySelector("h1")?.textContent).toBe("Bounds &ngE;");
    expect(container.querySelector("p")?.textContent).toBe("A & B");
  });
});
