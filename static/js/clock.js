/* The match clock on the live pages (table, referee, public): [data-countdown] holds the seconds left when the
 * page was rendered; it is counted down each second as m:ss (the server's reading comes back with every poll).
 * No inline scripts (the site's Content Security Policy forbids them). */
(function () {
  "use strict";

  function fmt(seconds) {
    var s = Math.max(0, Math.floor(seconds));
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
    var mm = (h ? String(m).padStart(2, "0") : String(m)) + ":" + String(r).padStart(2, "0");
    return h ? h + ":" + mm : mm;
  }

  function startCountdowns(root) {
    root.querySelectorAll("[data-countdown]").forEach(function (el) {
      if (el.dataset.started) return;
      el.dataset.started = "1";
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

  window.klawerjasClock = { start: startCountdowns };
  document.addEventListener("DOMContentLoaded", function () { startCountdowns(document); });
  document.addEventListener("htmx:afterSwap", function (event) { startCountdowns(event.detail.target); });
})();
