/* The match clock on the live pages (table, referee, public): [data-countdown] holds the seconds left when the
 * page was rendered; it is counted down each second as m:ss (the server's reading comes back with every poll).
 *
 * Load-shedding: a clock section with [data-clock] (tables/templatetags/table_offline.py) also says the server's
 * time of the reading and the instants it runs to (epoch ms). The phone then runs the clock by itself from the
 * last server time it saw, with no network: the difference between the server's clock and the phone's is kept
 * (localStorage) whenever a fresh page arrives, and used for a copy kept offline (<html data-offline-copy>, set
 * by the service worker). When the first half's time is up it shows the interval and its warning (SAKBOC 1.2,
 * 2.2); in the second half the last-15-minutes warning (1.15), then time (2.2).
 * No inline scripts (the site's Content Security Policy forbids them). */
(function () {
  "use strict";

  var OFFSET_KEY = "klawerjas-clock-offset";

  function fmt(seconds) {
    var s = Math.max(0, Math.floor(seconds));
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
    var mm = (h ? String(m).padStart(2, "0") : String(m)) + ":" + String(r).padStart(2, "0");
    return h ? h + ":" + mm : mm;
  }

  function offlineCopy(el) {
    return document.documentElement.hasAttribute("data-offline-copy") || !!el.closest("[data-offline-copy]");
  }

  /* The offset (ms to add to the phone's clock to read the server's). A reading (the server's time when it
   * rendered the clock, [data-server-now]) seen at the phone's time t says: offset >= serverNow - t, equal when
   * the reading is fresh. A polled live part is often not: the browser answers htmx with the body it kept when
   * the server says 304 (nothing changed since), and the service worker with its copy when there is no network;
   * both carry the older reading, and taking it as the offset set the clock back to it at every poll. So the
   * page keeps the largest offset its readings give, and a copy kept offline is never read as a reading. */
  var best = null;

  function keptOffset() {
    var kept = null;
    try { kept = localStorage.getItem(OFFSET_KEY); } catch (e) { kept = null; }
    return kept === null || isNaN(Number(kept)) ? null : Number(kept);
  }

  /** Milliseconds to add to the phone's clock to read the server's (see above). */
  function offsetFor(clock) {
    if (clock.dataset.offset) return Number(clock.dataset.offset);
    var serverNow = Number(clock.dataset.serverNow);
    if (serverNow && !offlineCopy(clock)) {
      var reading = serverNow - Date.now();
      if (best === null || reading > best) {
        best = reading;
        try { localStorage.setItem(OFFSET_KEY, String(best)); } catch (e) { /* private mode: keep it here */ }
      }
    } else if (best === null) {
      best = keptOffset();  // a copy kept offline: the offset the phone saw last, when it had a network
      if (best === null) best = 0;
    }
    clock.dataset.offset = String(best);
    return best;
  }

  function show(clock, name, visible) {
    var el = clock.querySelector('[data-clock-warning="' + name + '"]');
    if (el) el.hidden = !visible;
  }

  /** One second of a [data-clock] section: the countdown, and the phase the clock has reached by itself. */
  function tickClock(clock, countdown) {
    var now = Date.now() + offsetFor(clock);
    var phase = clock.dataset.phase;
    var endsAt = Number(clock.dataset.endsAt) || 0;
    var lastFrom = Number(clock.dataset.lastFrom) || 0;
    var target = endsAt, reached = phase;
    if (phase === "first_half" && endsAt && now >= endsAt) {
      reached = "interval";
      target = endsAt + (Number(clock.dataset.intervalMinutes) || 10) * 60000;
    } else if ((phase === "second_half" || phase === "extra_time") && endsAt && now >= endsAt) {
      reached = "time";
    }
    var last = phase === "second_half" && lastFrom && now >= lastFrom && reached !== "time";
    show(clock, "interval", reached === "interval");
    show(clock, "last", !!last);
    show(clock, "time", reached === "time");
    if (last) clock.classList.add("clock-last");
    var label = clock.querySelector("[data-clock-phase]");
    // The words come from the page, in its language (data-interval-text, data-time-text; issue 19).
    if (label && reached !== phase) label.textContent = reached === "interval"
      ? (label.getAttribute("data-interval-text") || "Interval") : (label.getAttribute("data-time-text") || "Time");
    if (countdown && target) {
      var left = (target - now) / 1000;
      countdown.textContent = fmt(left);
      countdown.classList.toggle("overdue", left <= 0);
    }
  }

  function startCountdowns(root) {
    var clocks = root.matches && root.matches("[data-clock]") ? [root] : [];
    clocks = clocks.concat(Array.prototype.slice.call(root.querySelectorAll("[data-clock]")));
    clocks.forEach(function (clock) {
      if (clock.dataset.started) return;
      clock.dataset.started = "1";
      if (clock._timer) clearInterval(clock._timer);  // morphed in place by a poll: one timer, the new reading
      var countdown = clock.querySelector("[data-countdown]");
      if (countdown) countdown.dataset.started = "1";
      var tick = function () { tickClock(clock, countdown); };
      tick();
      clock._timer = setInterval(function () {
        if (!document.body.contains(clock)) { clearInterval(clock._timer); return; }
        tick();
      }, 1000);
    });
    root.querySelectorAll("[data-countdown]").forEach(function (el) {
      if (el.dataset.started) return;
      el.dataset.started = "1";
      if (el._timer) clearInterval(el._timer);
      var end = Date.now() + Number(el.dataset.countdown) * 1000;
      function tick() {
        var left = (end - Date.now()) / 1000;
        el.textContent = fmt(left);
        if (left <= 0) el.classList.add("overdue");
      }
      tick();
      el._timer = setInterval(tick, 1000);
    });
  }

  /** The server's time now, by this phone's clock and the offset it keeps (ms since the epoch). */
  function serverNow() {
    var offset = best !== null ? best : keptOffset();
    return Date.now() + (offset || 0);
  }

  window.klawerjasClock = { start: startCountdowns, serverNow: serverNow };
  document.addEventListener("DOMContentLoaded", function () { startCountdowns(document); });
  document.addEventListener("htmx:afterSwap", function (event) { startCountdowns(event.detail.target); });
})();
