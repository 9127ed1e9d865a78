/**
 * U2: installs the service worker of the built page. Browsers allow one only on https or
 * on loopback; anywhere else this quietly does nothing and the page works as before.
 */
export function registerServiceWorker(
  navigatorLike: Navigator = navigator,
  log: (message: string, error: unknown) => void = console.warn,
): void {
  if (!("serviceWorker" in navigatorLike) || !window.isSecureContext) return;
  navigatorLike.serviceWorker
    .register("/sw.js", { scope: "/" })
    .catch((error: unknown) => log("the service worker could not be installed", error));
}
