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
interface PushEvent extends ExtendableEvent {
  data: { json(): unknown } | null;
}
interface NotificationEvent extends ExtendableEvent {
  action: string;
  notification: Notification;
}
interface WindowClientLike {
  url: string;
  focus(): Promise<unknown>;
  navigate(url: string): Promise<unknown>;
}
interface WorkerScope {
  location: Location;
  addEventListener(type: "install" | "activate", listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: "fetch", listener: (event: FetchEvent) => void): void;
  addEventListener(type: "push", listener: (event: PushEvent) => void): void;
  addEventListener(type: "notificationclick", listener: (event: NotificationEvent) => void): void;
  skipWaiting(): Promise<void>;
  registration: {
    showNotification(
      title: string,
      options: NotificationOptions & { actions?: unknown[] },
    ): Promise<void>;
  };
  clients: {
    claim(): Promise<void>;
    matchAll(options: { type: "window" }): Promise<WindowClientLike[]>;
    openWindow(url: string): Promise<unknown>;
  };
}

/** U3: what the server pushes (see the server's PushPayload). */
interface PushPayload {
  interactionId: string;
  agent: string;
  overMcp: boolean;
  sessionTitle: string;
  text: string;
  actions: { id: string; label: string }[];
  deadlineAt?: number;
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

// U3: a notification that names the agent and carries the question; simple answers are actions.
scope.addEventListener("push", (event) => {
  const payload = event.data?.json() as PushPayload | undefined;
  if (!payload) return;
  event.waitUntil(
    scope.registration.showNotification(payload.agent, {
      body: payload.sessionTitle ? `${payload.text}\n${payload.sessionTitle}` : payload.text,
      tag: payload.interactionId,
      data: payload,
      requireInteraction: true,
      actions: payload.actions.map((action) => ({ action: action.id, title: action.label })),
    }),
  );
});

async function openCard(interactionId: string): Promise<void> {
  const url = `/#/inbox/${encodeURIComponent(interactionId)}`;
  const [open] = await scope.clients.matchAll({ type: "window" });
  if (open) {
    await open.navigate(url);
    await open.focus();
  } else {
    await scope.clients.openWindow(url);
  }
}

scope.addEventListener("notificationclick", (event) => {
  const payload = event.notification.data as PushPayload;
  event.notification.close();
  if (!event.action) {
    event.waitUntil(openCard(payload.interactionId));
    return;
  }
  event.waitUntil(
    fetch("/push/action", {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ interactionId: payload.interactionId, action: event.action }),
    }).then((response) => (response.ok ? undefined : openCard(payload.interactionId))),
  );
});
