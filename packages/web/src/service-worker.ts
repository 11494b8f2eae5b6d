/**
 * Registers the app's service worker (public/sw.js), which caches the app shell and the proof code so
 * the verify page works offline once loaded. Never caches API answers. Browsers without service
 * workers, or pages not served from a secure context, simply stay online-only.
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator) || !globalThis.isSecureContext) return;
  // After the page has loaded: installing fetches the shell and assets again.
  const register = () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {});
  };
  if (document.readyState === 'complete') register();
  else addEventListener('load', register, { once: true });
}
