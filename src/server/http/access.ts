import {
  credentialOf,
  FORBIDDEN_PAGE,
  hostAllowed,
  originAllowed,
  tokenCookieName,
  tokensMatch,
  UNAUTHORIZED_PAGE,
} from "./auth.ts";
import { parseCookies, serializeCookie } from "./cookies.ts";

/** What the router resolved a request to; the decision never looks at the raw path. */
export type RouteKind = "socket" | "agent" | "page";

export interface AccessRequest {
  method: string;
  /** The raw request target, only for `?token=` and the redirect after it. */
  url: string;
  route: RouteKind;
  headers: {
    host?: string | undefined;
    origin?: string | undefined;
    cookie?: string | undefined;
    authorization?: string | undefined;
    upgrade?: string | undefined;
    "sec-fetch-dest"?: string | undefined;
    "sec-fetch-site"?: string | undefined;
  };
}

export type AccessDecision =
  /** `person` is set when a named token (S3) let the request in; the default token has none. */
  | { type: "allow"; person?: string }
  | {
      type: "refuse";
      status: 401 | 403;
      body: string;
      /** B2: an agent's 401 says how to authenticate (RFC 6750's WWW-Authenticate). */
      challenge?: string;
    }
  /** The page was opened with the right `?token=`: keep it in a cookie, drop it from the URL. */
  | { type: "redirect"; location: string; setCookie: string };

export interface AccessServer {
  /** The workspace's own token (W8): the single user's, always accepted. */
  token: string;
  port: number;
  /** `--public-url`: its host and origin are this server's too. */
  publicUrl?: URL | undefined;
  /** S3: whose named token this is; undefined for an unknown or revoked one. */
  personOf?(token: string): string | undefined;
  /** B2: the agents' token, good on `/mcp` only. */
  agentToken?: string | undefined;
}

const FOREIGN_HOST = "plangate: unexpected Host header.\n";
const FOREIGN_ORIGIN = "plangate: foreign origin.\n";
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * R1, R7: the one access decision for every request. Host must be this server's own; an
 * Origin, whenever a browser sends one, must be this server's page (a page on another port is
 * same-site, so the SameSite cookie alone does not stop it); and every upgrade or
 * state-changing request from a browser carries an Origin, so it is always checked. The token
 * comes from `?token=` or the cookie, or for an agent on the MCP route from a bearer header.
 */
export function decideAccess(request: AccessRequest, server: AccessServer): AccessDecision {
  const { headers, route } = request;
  const refuse = (status: 401 | 403, body: string): AccessDecision => ({
    type: "refuse",
    status,
    body,
  });
  if (!hostAllowed(headers.host, server.port, server.publicUrl)) return refuse(403, FOREIGN_HOST);
  if (headers.origin !== undefined && !originAllowed(headers.origin, server.port, server.publicUrl))
    return refuse(403, FOREIGN_ORIGIN);

  const url = new URL(request.url, `http://127.0.0.1:${server.port}`);
  if (route === "agent") return agentAccess(headers.authorization, url, server);
  if (route === "page" && !tradesQueryToken(headers, url, server)) url.searchParams.delete("token");
  const credential = credentialOf(url, headers.cookie, server.port);
  if (credential.source === "none") return refuse(401, UNAUTHORIZED_PAGE);
  const holder = pageHolderOf(credential.token, server);
  if (holder === undefined) {
    // A stale cookie on the page means "open the printed URL again"; a wrong token is refused.
    const stale = credential.source === "cookie" && route === "page";
    return stale ? refuse(401, UNAUTHORIZED_PAGE) : refuse(403, FORBIDDEN_PAGE);
  }
  const allow: AccessDecision =
    holder.person === undefined ? { type: "allow" } : { type: "allow", person: holder.person };
  if (credential.source === "cookie") return allow;
  const isUpgrade = headers.upgrade !== undefined;
  if (route === "socket" || isUpgrade || !SAFE_METHODS.has(request.method)) return allow;
  url.searchParams.delete("token");
  // Behind the HTTPS public URL the cookie must never travel in clear.
  const secure =
    server.publicUrl?.protocol === "https:" &&
    headers.host?.toLowerCase() === server.publicUrl.host.toLowerCase();
  return {
    type: "redirect",
    location: localLocation(url),
    setCookie: serializeCookie(tokenCookieName(server.port), credential.token, {
      httpOnly: true,
      sameSite: "Strict",
      ...(secure ? { secure: true } : {}),
    }),
  };
}

/**
 * R7: only the person's own top-level navigation trades `?token=` for the cookie; not an image
 * or a fetch (agent markdown once swapped the page's token with `![](/?token=…)`), nor a link
 * followed from a plangate page that already holds one, nor (S3) a link from another site that
 * would sign a signed-in person in as someone else (a page on another port of this machine can
 * send one): their answers would be recorded under that name. Typed or pasted into the address
 * bar (`Sec-Fetch-Site: none`), it switches. Clients without Fetch Metadata (older browsers,
 * scripts) send none of these headers and keep the old behaviour.
 */
function tradesQueryToken(
  headers: AccessRequest["headers"],
  url: URL,
  server: AccessServer,
): boolean {
  // The destination, not the mode: Node's fetch sends `Sec-Fetch-Mode: cors` and no destination.
  const dest = headers["sec-fetch-dest"];
  if (dest !== undefined && dest !== "document") return false;
  const held = parseCookies(headers.cookie).get(tokenCookieName(server.port));
  if (held === undefined) return true;
  const site = headers["sec-fetch-site"];
  if (site === "same-origin") return false;
  if (site === undefined || site === "none") return true;
  const query = url.searchParams.get("token") ?? "";
  return tokensMatch(held, query) || pageHolderOf(held, server) === undefined;
}

/**
 * Who `token` opens the page as: the workspace's owner (no person), a named person not revoked
 * (S3), or undefined when it opens nothing.
 */
function pageHolderOf(token: string, server: AccessServer): { person?: string } | undefined {
  if (tokensMatch(token, server.token)) return {};
  const person = server.personOf?.(token);
  return person === undefined ? undefined : { person };
}

const BEARER_CHALLENGE = 'Bearer realm="plangate"';

/**
 * B2: an agent's token only as a bearer header, never from the URL (logs keep URLs) or a cookie
 * (a browser sends that on its own); a refusal is a 401 naming the scheme and, per RFC 6750,
 * what was wrong with the request.
 */
function agentAccess(
  authorization: string | undefined,
  url: URL,
  server: AccessServer,
): AccessDecision {
  const refuse = (status: 401 | 403, body: string, error?: string): AccessDecision => ({
    type: "refuse",
    status,
    body: `plangate: ${body}\n`,
    challenge: error === undefined ? BEARER_CHALLENGE : `${BEARER_CHALLENGE}, ${error}`,
  });
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "")?.[1];
  const agentToken = server.agentToken;
  if (
    bearer !== undefined &&
    (tokensMatch(bearer, server.token) ||
      (agentToken !== undefined && tokensMatch(bearer, agentToken)))
  )
    return { type: "allow" };
  // S3: a person's token opens the page, not the agents' route.
  if (bearer !== undefined && server.personOf?.(bearer) !== undefined) {
    return refuse(
      403,
      "that token is a person's; an agent uses the agent token that plangate printed when it started.",
      'error="insufficient_scope"',
    );
  }
  if (bearer !== undefined) {
    return refuse(
      401,
      "that access token is wrong. Use the agent token that plangate printed when it started.",
      'error="invalid_token"',
    );
  }
  if (url.searchParams.has("token")) {
    return refuse(
      401,
      "send the token in the Authorization header (Bearer), not in the URL.",
      'error="invalid_request", error_description="send the token in the Authorization header, never in the URL"',
    );
  }
  return refuse(401, "/mcp needs the access token as an Authorization: Bearer header.");
}

/**
 * R13: a path on this server whatever the request said: `/.//evil.example` normalises to
 * `//evil.example`, which a browser would read as another host, so leading slashes (and the
 * backslashes browsers treat as slashes) collapse into one.
 */
export function localLocation(url: URL): string {
  return `/${url.pathname.replace(/^[/\\]+/, "")}${url.search}`;
}
