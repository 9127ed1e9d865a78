// U2: the service worker. It keeps the app shell so the installed app opens without the
// network, and nothing else: session data only ever arrives over the socket.
import { SHELL_CACHE, shellRule } from "./shellCache.ts";

interface ExtendableEvent {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  request: Request;
  respondWith(response: Promise<Response>): void;
}
interface WorkerScope {
  location: Location;
  addEventListener(type: "install" | "activate", listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: "fetch", listener: (event: FetchEvent) => void): void;
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
}

const scope = self as unknown as WorkerScope;

async function keep(request: Request, response: Response): Promise<Response> {
  if (response.ok && response.type === "basic" && !response.redirected) {
    const cache = await caches.open(SHELL_CACHE);
    await cache.put(request, response.clone());
  }
  return response;
}

/** The page: the network first, so a new build shows at once; the kept copy when offline. */
async function page(request: Request): Promise<Response> {
  try {
    return await keep(new Request("/", { credentials: "same-origin" }), await fetch(request));
  } catch (error) {
    const kept = await caches.match("/");
    if (kept) return kept;
    throw error;
  }
}

/** Hashed assets never change under their name: the kept copy first. */
async function asset(request: Request): Promise<Response> {
  const kept = await caches.match(request);
  return kept ?? keep(request, await fetch(request));
}

scope.addEventListener("install", (event) => {
  event.waitUntil(scope.skipWaiting());
});

scope.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name !== SHELL_CACHE) await caches.delete(name);
      }
      await scope.clients.claim();
    })(),
  );
});

scope.addEventListener("fetch", (event) => {
  const rule = shellRule(event.request, scope.location.origin);
  if (rule === "page") event.respondWith(page(event.request));
  else if (rule === "asset") event.respondWith(asset(event.request));
});
