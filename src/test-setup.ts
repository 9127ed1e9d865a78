// Component tests opt into jsdom with a `// @vitest-environment jsdom` docblock; matchers load everywhere.
import "@testing-library/jest-dom/vitest";
import { prefetchMarkdown } from "./web/markdown/Markdown.tsx";

// The markdown parser is a lazy chunk in the app; tests load it up front so renders are synchronous.
await prefetchMarkdown();
