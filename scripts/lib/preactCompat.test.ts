import { preactCompatProblems } from "./preactCompat.ts";

describe("React API the page's Preact runtime lacks (issue 15)", () => {
  it("[W1] finds a prop named ref, in a props type and in a destructuring", () => {
    const typed = `function Row({\n  rowId,\n}: {\n  ref: Ref<HTMLElement>;\n}) {}`;
    const destructured = `function Row({\n  ref,\n  onFocus,\n}: RowProps) {}`;
    const method = `interface RowProps {\n  ref(element: HTMLElement | null): void;\n}`;
    for (const text of [typed, destructured, method])
      expect(preactCompatProblems("src/web/inbox/Row.tsx", text), text).toHaveLength(1);
    expect(preactCompatProblems("src/web/inbox/Row.tsx", `<button ref={rowRef} />`)).toEqual([]);
  });

  it("[W1] finds React's use() among a react import's names, and nothing outside the page", () => {
    const text = `import {\n  createContext,\n  use,\n  useContext,\n} from "react";`;
    expect(preactCompatProblems("src/web/i18n/t.tsx", text)).toHaveLength(1);
    expect(
      preactCompatProblems("src/web/i18n/t.tsx", `import { useContext } from "react";`),
    ).toEqual([]);
    expect(preactCompatProblems("src/server/a.tsx", text)).toEqual([]);
  });
});
