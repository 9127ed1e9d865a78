// The page is written against React's API but runs on Preact's compatibility layer
// (scripts/preactAliases.ts). Two React 19 features compile there and then fail quietly.

/** A `react` import list naming `use`, which Preact's layer does not have. */
const IMPORTS_USE = /import\s*\{[^}]*\buse\b[^}]*\}\s*from\s*["']react["']/;
/** A component prop named `ref` (a props type's or a destructuring's line): Preact keeps `ref` off a function component's props. */
const REF_PROP = /^\s+ref\??\s*[:(,]/m;

/** What in a page file (a path relative to the repository) Preact's layer would not run. */
export function preactCompatProblems(file: string, text: string): string[] {
  if (!file.startsWith("src/web/") || /\.test\.tsx?$/.test(file)) return [];
  const problems: string[] = [];
  if (IMPORTS_USE.test(text))
    problems.push(`${file}: imports React's use(), which Preact lacks; throw the promise`);
  if (file.endsWith(".tsx") && REF_PROP.test(text))
    problems.push(`${file}: a prop named "ref" never reaches a function component under Preact`);
  return problems;
}
