/* Referee console: small progressive enhancements (the pages work without them).
 * (The clock's [data-countdown] is static/js/clock.js, shared with the table and public pages.)
 * - [data-card-picker]: tap cards to put them in the chosen seat's hand field.
 * - [data-print]: print the page.
 * No inline scripts (the site's Content Security Policy forbids them). */
(function () {
  "use strict";
  var t = window.klawerjasText; // the page's words in the reader's language (static/js/strings.js)


  function cardPicker(root) {
    root.querySelectorAll("[data-card-picker]").forEach(function (box) {
      var inputs = [0, 1, 2, 3].map(function (n) { return document.getElementById("id_hand_" + n); });
      function handOf(n) { return inputs[n].value.toUpperCase().split(/[\s,]+/).filter(Boolean); }
      function paint() {
        box.querySelectorAll("[data-card]").forEach(function (btn) {
          var owner = -1;
          for (var n = 0; n < 4; n++) if (handOf(n).indexOf(btn.dataset.card) >= 0) owner = n;
          btn.dataset.owner = owner >= 0 ? String(owner) : "";
          btn.setAttribute("aria-pressed", owner >= 0 ? "true" : "false");
          btn.title = owner >= 0 ? t("seat %(seat)s", {seat: owner}) : "";
        });
      }
      box.addEventListener("click", function (event) {
        var btn = event.target.closest("[data-card]");
        if (!btn) return;
        var seat = Number((box.querySelector("input[name=picker_seat]:checked") || {value: 0}).value);
        var card = btn.dataset.card;
        var had = handOf(seat).indexOf(card) >= 0;
        for (var n = 0; n < 4; n++) inputs[n].value = handOf(n).filter(function (c) { return c !== card; }).join(" ");
        if (!had) inputs[seat].value = handOf(seat).concat([card]).join(" ");
        paint();
      });
      inputs.forEach(function (input) { input.addEventListener("input", paint); });
      paint();
    });
  }

  function init(root) {
    cardPicker(root);
    root.querySelectorAll("[data-print]").forEach(function (b) { b.addEventListener("click", function () { window.print(); }); });
  }

  document.addEventListener("DOMContentLoaded", function () { init(document); });
  document.addEventListener("htmx:afterSwap", function (event) { init(event.detail.target); });
})();
