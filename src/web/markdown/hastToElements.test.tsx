// @vitest-environment jsdom
import { render } from "@testing-library/react";
import type { Root } from "hast";
import { hastToElements } from "./hastToElements.ts";

describe("hastToElements (R5)", () => {
  it("[R5] never turns a tree's property into an event handler or markup, whatever the tree holds", () => {
    // The page's runtime binds any on* prop as a listener; markdownToHast emits none, and this
    // boundary keeps it so if a future tree carried one.
    const tree: Root = {
      type: "root",
      children: [
        {
          type: "element",
          tagName: "a",
          properties: {
            href: "#note",
            onClick: "alert(1)",
            onmouseover: "alert(2)",
            dangerouslySetInnerHTML: { __html: "<img src=x onerror=alert(3)>" } as never,
          },
          children: [{ type: "text", value: "note" }],
        },
      ],
    };
    const pageErrors = vi.fn();
    window.addEventListener("error", pageErrors);
    const { container } = render(<div>{hastToElements(tree, {})}</div>);
    const link = container.querySelector("a") as HTMLAnchorElement;
    link.click();
    link.dispatchEvent(new MouseEvent("mouseover", { bubbles: true }));
    expect(link.outerHTML).toBe('<a href="#note">note</a>');
    expect(pageErrors).not.toHaveBeenCalled();
    window.removeEventListener("error", pageErrors);
  });
});
