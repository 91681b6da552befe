/* Load-shedding, on the table pages and the referee's console (loaded with data-service-worker and data-scope):
 * - registers the service worker (tables/templates/tables/service-worker.js) for this app's scope, so the pages
 *   open with no network once visited;
 * - says when what is shown is stale: a copy the service worker kept (<html data-offline-copy>, or a live part
 *   answered with X-Offline-Copy), no network (navigator.onLine), or a poll that failed. The page then gets the
 *   class "is-stale" on <body> (each table's .stale-note shows) and a banner with the time of the state shown
 *   (the server's time of the last reading, [data-server-now]);
 * - opens the page (and a table's "af" form) once more through the service worker, so a copy is kept;
 * - forgets the pages kept for this phone when the device signs out ([data-forget-pages]).
 * No inline scripts (the site's Content Security Policy forbids them). */
(function () {
  "use strict";
  var t = window.klawerjasText; // the page's words in the reader's language (static/js/strings.js)


  var script = document.currentScript;
  var swUrl = script && script.dataset.serviceWorker;
  var scope = (script && script.dataset.scope) || "/";
  var app = scope.indexOf("/referee/") === 0 ? "referee" : "table";
  var liveCopy = false, pollFailed = false;

  if ("serviceWorker" in navigator && swUrl) {
    navigator.serviceWorker.register(swUrl, {scope: scope}).catch(function () { /* no offline copy then */ });
  }

  function stale() {
    return document.documentElement.hasAttribute("data-offline-copy") || liveCopy || pollFailed ||
      navigator.onLine === false;
  }

  function asOf() {
    var clock = document.querySelector("#live [data-server-now]") || document.querySelector("[data-server-now]");
    var ms = clock ? Number(clock.dataset.serverNow) : 0;
    if (!ms) return "";
    return new Date(ms).toLocaleTimeString("en-ZA", {hour: "2-digit", minute: "2-digit", second: "2-digit",
                                                      hour12: false});
  }

  function banner() {
    var el = document.getElementById("offline-banner");
    if (!el) {
      var main = document.querySelector("main");
      if (!main) return null;
      el = document.createElement("p");
      el.id = "offline-banner";
      el.className = "offline-banner";
      el.setAttribute("role", "status");
      main.insertBefore(el, main.firstChild);
    }
    return el;
  }

  function update() {
    var isStale = stale();
    document.body.classList.toggle("is-stale", isStale);
    var el = isStale ? banner() : document.getElementById("offline-banner");
    if (!el) return;
    el.hidden = !isStale;
    if (!isStale) return;
    var time = asOf();
    el.textContent = app === "referee"
      ? (time ? t("No network: the last known state of every table, as of %(time)s. Stale until the network returns.",
                  {time: time})
              : t("No network: the last known state of every table. Stale until the network returns."))
      : (time ? t("No network: the sheet as it was at %(time)s. What you enter waits on this phone and is sent by " +
                  "itself when the network returns.", {time: time})
              : t("No network: the sheet as it was. What you enter waits on this phone and is sent by itself when " +
                  "the network returns."));
  }

  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    if (!xhr || !event.detail.successful) { pollFailed = true; update(); return; }
    pollFailed = false;
    liveCopy = !!xhr.getResponseHeader("X-Offline-Copy");
    if (!liveCopy) document.documentElement.removeAttribute("data-offline-copy");
    update();
  });
  // A kept copy of the live part older than what the page shows already is not swapped in.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var xhr = event.detail.xhr;
    if (!xhr || !xhr.getResponseHeader("X-Offline-Copy")) return;
    var shown = document.querySelector("#live [data-server-now]");
    var found = /data-server-now="(\d+)"/.exec(event.detail.serverResponse || "");
    if (shown && found && Number(found[1]) < Number(shown.dataset.serverNow)) event.detail.shouldSwap = false;
  });
  document.addEventListener("htmx:sendError", function () { pollFailed = true; update(); });
  document.addEventListener("htmx:afterSwap", update);
  window.addEventListener("online", function () {
    pollFailed = false;
    update();
    var live = document.getElementById("live");
    if (live && window.htmx && live.getAttribute("hx-get")) {  // the state as it is now, without waiting a poll
      window.htmx.ajax("GET", live.getAttribute("hx-get"), {source: live, target: live, swap: "morph:innerHTML"})
        .catch(function () {});
    }
  });
  window.addEventListener("offline", update);

  document.addEventListener("submit", function (event) {
    if (!event.target.matches("[data-forget-pages]")) return;
    if (navigator.serviceWorker && navigator.serviceWorker.controller) {
      navigator.serviceWorker.controller.postMessage({type: "forget-pages"});
    }
  });

  /** Open this page (and a table's "af" form) once more through the service worker, so a copy is kept even
   * for the first visit, which the service worker did not yet see. */
  function warm() {
    if (stale()) return;
    var urls = [location.pathname];
    var af = document.querySelector("a[data-af]");
    if (af) urls.push(af.getAttribute("href"));
    urls.forEach(function (url) {
      fetch(url, {credentials: "same-origin"}).catch(function () { /* later then */ });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    update();
    if (!("serviceWorker" in navigator) || !swUrl) return;
    navigator.serviceWorker.ready.then(function () {
      if (navigator.serviceWorker.controller) warm();
      else navigator.serviceWorker.addEventListener("controllerchange", warm, {once: true});
    });
  });

  window.klawerjasOffline = {stale: stale, update: update};
})();
