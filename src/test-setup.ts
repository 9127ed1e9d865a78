// Component tests opt into jsdom with a `// @vitest-environment jsdom` docblock; matchers load everywhere.
import "@testing-library/jest-dom/vitest";
