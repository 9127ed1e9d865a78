import { renderMarkdown } from "./renderMarkdown.tsx";

// One of each construct a plan uses, so parser and renderer are compiled before the first plan.
const SAMPLE = `# Plan

Some **bold**, _em_, ~~gone~~, \`code\`, a [link](https://example.com) and www.example.com.

## Steps

1. First
   - nested
     - deeper
2. Second

- [ ] open
- [x] done

| File | Change |
| :--- | -----: |
| \`a.ts\` | add |

\`\`\`ts
const x = 1;
\`\`\`

> quote

---
`;

/** Renders a small sample a few times, off the critical path, so a big plan starts warm. */
export function warmUpMarkdown(): void {
  for (let i = 0; i < 3; i++) renderMarkdown(`${SAMPLE}${i}`);
}
