// @vitest-environment jsdom
import { render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { decodeHTMLStrict as fullTable } from "./entityTable.ts";
import { Markdown } from "./Markdown.tsx";
import { COMMON_ENTITIES, decodeHTMLStrict, namedEntitiesFor } from "./namedEntities.ts";

describe("named entities (R5, issue 15)", () => {
  it("[R5] the small table decodes each of its names as the full table does", () => {
    expect(COMMON_ENTITIES.size).toBeGreaterThan(40);
    for (const [name, value] of COMMON_ENTITIES) {
      expect(decodeHTMLStrict(`&${name};`), name).toBe(fullTable(`&${name};`));
      expect(value, name).toBe(fullTable(`&${name};`));
    }
  });

  it("[R5] a plan naming a rare entity shows plain until the full table is in, then renders its character", async () => {
    // Common names, numeric references and `&x;`-like code need no fetch.
    expect(namedEntitiesFor("a &amp; b &lt;i&gt; &nbsp;&copy; &#169; &#x2014; p = &x;")).toBeNull();
    expect(decodeHTMLStrict("&ngE;")).toBe("&ngE;");
    const text =
      '# Bounds &ngE; &ClockwiseContourIntegral;\n\n[docs](/f&ouml;o "&Dcaron;") `&ngE;` &amp; &copy;';
    const { container } = render(<Markdown text={text} />);
    expect(container.querySelector(".markdown-plain")?.textContent).toBe(text);
    await waitFor(() => expect(container.querySelector(".markdown-plain")).toBeNull());
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe(
      "Bounds \u2267\u0338 \u2232",
    );
    const link = screen.getByRole("link", { name: "docs" });
    expect(link.getAttribute("href")).toBe("/f%C3%B6o");
    expect(link.getAttribute("title")).toBe("Ď");
    expect(container.querySelector("code")?.textContent).toBe("&ngE;");
    expect(container.querySelector("p")?.textContent).toBe("docs &ngE; & ©");
    expect(decodeHTMLStrict("&ngE;")).toBe("\u2267\u0338");
  });
});
