import type { MarkdownIt, StateInline } from "markdown-it";

const TILDE = 0x7e;

/**
 * GFM strikethrough as remark-gfm reads it: `~one~` as well as `~~two~~`, a closing run as
 * long as its opening one, and runs of three or more tildes left as text. markdown-it's own
 * rule knows only `~~`; this one takes its place.
 */
export function gfmStrikethrough(parser: MarkdownIt): void {
  parser.inline.ruler.at("strikethrough", tokenize);
  parser.inline.ruler2.at("strikethrough", (state) => {
    pair(state, state.delimiters);
    for (const meta of state.tokens_meta) if (meta?.delimiters) pair(state, meta.delimiters);
    return false;
  });
}

function tokenize(state: StateInline, silent: boolean): boolean {
  if (silent || state.src.charCodeAt(state.pos) !== TILDE) return false;
  const scanned = state.scanDelims(state.pos, true);
  const run = "~".repeat(scanned.length);
  state.push("text", "", 0).content = run;
  if (scanned.length <= 2) {
    state.delimiters.push({
      marker: TILDE,
      length: 0,
      token: state.tokens.length - 1,
      end: -1,
      open: scanned.can_open,
      close: scanned.can_close,
    });
  }
  state.pos += scanned.length;
  return true;
}

function pair(state: StateInline, delimiters: StateInline["delimiters"]): void {
  for (const opener of delimiters) {
    if (opener.marker !== TILDE || opener.end === -1) continue;
    const open = state.tokens[opener.token];
    const close = state.tokens[delimiters[opener.end]?.token ?? -1];
    if (!open || !close || open.content !== close.content) continue;
    for (const [token, type, nesting] of [
      [open, "s_open", 1],
      [close, "s_close", -1],
    ] as const) {
      token.type = type;
      token.tag = "s";
      token.nesting = nesting;
      token.markup = token.content;
      token.content = "";
    }
  }
}
