import { isIP } from "node:net";

/** R1: the addresses that keep plangate on this machine. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  if (bare === "localhost" || bare === "::1") return true;
  return isIP(bare) === 4 && bare.startsWith("127.");
}

export class ReachError extends Error {}

/**
 * `--public-url`: the address a phone opens (an SSH tunnel's, or an HTTPS proxy's such as
 * `tailscale serve`). Only an origin: plangate serves from the root, so a path prefix would
 * break every link.
 */
export function parsePublicUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ReachError(
      `--public-url must be a full URL such as https://laptop.example.ts.net, not "${text}".`,
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new ReachError(
      `--public-url must start with https:// (or http:// for a tunnel), not "${url.protocol}".`,
    );
  if (url.username || url.password)
    throw new ReachError("--public-url cannot carry a user name or password.");
  if (url.pathname !== "/" || url.search || url.hash)
    throw new ReachError(
      `--public-url must be an origin only (like ${url.origin}); plangate cannot be served under a path.`,
    );
  return new URL(url.origin);
}

/** R1: binding beyond loopback is a decision the person makes out loud, never a default. */
export function checkBindHost(host: string, allowRemote: boolean): void {
  if (isLoopbackHost(host) || allowRemote) return;
  throw new ReachError(
    `--host ${host} would let other machines reach plangate. Prefer an SSH tunnel or tailscale serve (see the README); to bind beyond loopback anyway, add --allow-remote and put HTTPS in front.`,
  );
}

/** The warning printed at start when plangate listens beyond loopback. */
export function remoteBindWarning(host: string, port: number, publicUrl: URL | undefined): string {
  const lines = [
    `WARNING: listening on ${host}:${port}, reachable beyond this machine.`,
    "Put HTTPS in front of it (a reverse proxy, or tailscale serve), or use an SSH tunnel instead: the access token travels with every request.",
  ];
  if (publicUrl?.protocol === "http:")
    lines.push(
      `The public URL ${publicUrl.origin} is plain http: anyone on the network path can read the token.`,
    );
  return lines.join("\n");
}
