/**
 * Reads a `Cookie` request header into name → value. Malformed pairs are skipped, the first
 * occurrence of a name wins (as browsers send the most specific cookie first), and
 * percent-encoded values are decoded when they decode cleanly.
 */
export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  if (!header) return cookies;
  for (const pair of header.split(";")) {
    const equals = pair.indexOf("=");
    if (equals <= 0) continue;
    const name = pair.slice(0, equals).trim();
    if (!name || cookies.has(name)) continue;
    let value = pair.slice(equals + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"'))
      value = value.slice(1, -1);
    try {
      value = decodeURIComponent(value);
    } catch {
      // keep the raw value
    }
    cookies.set(name, value);
  }
  return cookies;
}

export function serializeCookie(
  name: string,
  value: string,
  attributes: {
    httpOnly?: boolean;
    sameSite?: "Strict" | "Lax";
    path?: string;
    secure?: boolean;
  } = {},
): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, `Path=${attributes.path ?? "/"}`];
  if (attributes.httpOnly) parts.push("HttpOnly");
  if (attributes.sameSite) parts.push(`SameSite=${attributes.sameSite}`);
  if (attributes.secure) parts.push("Secure");
  return parts.join("; ");
}
