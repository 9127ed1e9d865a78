declare module "markdown-it-footnote" {
  import type MarkdownIt from "markdown-it";

  const footnote: MarkdownIt.PluginSimple;
  export default footnote;
}
