/* klawerjas-league's service worker: the table pages (/table/) and the referee's console (/referee/) open with
 * no network once visited (load-shedding). Rendered by tables.offline.service_worker; Workbox is our vendored
 * copy (static/vendor/workbox/, scripts/vendor-offline-libs): nothing is loaded from a CDN.
 *
 * - The static files the pages need are precached on install (with a revision each: a changed file is fetched
 *   again, and this script changes with it, so phones update).
 * - The pages a phone opened (a table's sheet, its live part, its "af" form; the console and a match's
 *   dashboard) are network-first: fresh when the network answers within 5 s, else the last copy kept, marked
 *   as such (the header X-Offline-Copy, and <html data-offline-copy> on a page), so the page says it is stale.
 * - htmx's requests for a live part share their page's address: they are kept under their own key.
 * - A page never opened answers with the offline page. Writes (POST) are never cached or replayed here: the
 *   table's queue (static/js/table-queue.js) keeps them in IndexedDB and sends each once.
 */
importScripts("{{ workbox_sw }}");
workbox.setConfig({modulePathPrefix: "{{ workbox_prefix }}", debug: false});
workbox.core.setCacheNameDetails({prefix: "klawerjas"});
self.skipWaiting();
workbox.core.clientsClaim();
workbox.precaching.cleanupOutdatedCaches();
workbox.precaching.precacheAndRoute({{ precache|safe }});

var OFFLINE_PAGE = {{ offline_page|safe }};
var PAGES = "klawerjas-pages";
var PAGE_PATHS = [
  /^\/table\/$/, /^\/table\/sheet\/$/, /^\/table\/sheet\/live\/$/, /^\/table\/sheet\/af\/$/,
  /^\/referee\/$/, /^\/referee\/matches\/\d+\/$/
];

var pagesPlugin = {
  // A live part fetched by htmx (HX-Request) is kept apart from its page at the same address.
  cacheKeyWillBeUsed: async function (params) {
    var url = new URL(params.request.url);
    if (params.request.headers.get("HX-Request")) url.searchParams.set("_fragment", "1");
    return url.href;
  },
  // A kept copy says it is one: the page can then show that it is stale, and since when.
  cachedResponseWillBeUsed: async function (params) {
    var cached = params.cachedResponse;
    if (!cached) return null;
    var headers = new Headers(cached.headers);
    headers.set("X-Offline-Copy", "1");
    var body = await cached.text();
    if ((headers.get("Content-Type") || "").indexOf("text/html") >= 0) {
      body = body.replace("<html", "<html data-offline-copy");
    }
    return new Response(body, {status: cached.status, statusText: cached.statusText, headers: headers});
  }
};

workbox.routing.registerRoute(
  function (options) {
    var url = options.url;
    return options.request.method === "GET" && url.origin === self.location.origin &&
      PAGE_PATHS.some(function (re) { return re.test(url.pathname); });
  },
  new workbox.strategies.NetworkFirst({
    cacheName: PAGES,
    networkTimeoutSeconds: 5,
    plugins: [
      new workbox.cacheableResponse.CacheableResponsePlugin({statuses: [200]}),
      pagesPlugin,
      new workbox.expiration.ExpirationPlugin({maxEntries: 60})
    ]
  })
);

workbox.routing.setCatchHandler(async function (options) {
  if (options.request.destination === "document") {
    var page = await workbox.precaching.matchPrecache(OFFLINE_PAGE);
    if (page) return page;
  }
  return Response.error();
});

// The sign-out forgets the pages kept for this phone's table.
self.addEventListener("message", function (event) {
  if (event.data && event.data.type === "forget-pages") event.waitUntil(caches.delete(PAGES));
});
