/* The live parts of the table's sheet, the referee's dashboard and the public match page are morphed in, not
 * replaced (idiomorph's htmx extension, static/vendor/idiomorph/: hx-ext="morph" hx-swap="morph:innerHTML"): a
 * poll changes only what changed, and a screen reader keeps its place. (A poll with nothing new changes
 * nothing at all: the server answers 204, plumbing/page_cache.py.) What the reader opened, chose or
 * typed is theirs, and a poll does not take it back:
 * - a <details> keeps the state the reader left it in, open or closed (the server's "open" only says how a new
 *   one starts);
 * - a field the reader changed (a select, a box, a text), or the one that has the focus, keeps its value until
 *   its form is sent. Hidden fields (a sheet's version, the CSRF token) are always the server's.
 * No inline scripts (the site's Content Security Policy forbids them). */
(function () {
  "use strict";
  if (!window.Idiomorph) return;

  var VALUES = {value: true, checked: true, selected: true};
  var touched = new WeakSet();

  /** The form field an attribute belongs to: an <option>'s is its <select>. */
  function fieldOf(el) {
    return el.tagName === "OPTION" ? el.closest("select") : el;
  }

  /** Whether the reader set this field (or is in it): its value is theirs. */
  function readersOwn(el) {
    var field = fieldOf(el);
    if (!field || field.type === "hidden") return false;
    return touched.has(field) || field === document.activeElement;
  }

  function touch(event) {
    var field = event.target;
    if (!field || !("value" in field)) return;
    touched.add(field);
    // A radio chosen: its whole group is the reader's (the server's "checked" on another must not win).
    if (field.type === "radio" && field.form && field.name) {
      Array.prototype.forEach.call(field.form.querySelectorAll('input[type=radio]'), function (radio) {
        if (radio.name === field.name) touched.add(radio);
      });
    }
  }

  document.addEventListener("input", touch, true);
  document.addEventListener("change", touch, true);
  // A form sent: its fields are the server's again.
  document.addEventListener("submit", function (event) {
    Array.prototype.forEach.call(event.target.elements || [], function (field) { touched.delete(field); });
  }, true);

  window.Idiomorph.defaults.callbacks.beforeAttributeUpdated = function (name, el) {
    if (name === "open" && el.tagName === "DETAILS") return false;
    if (VALUES[name] && readersOwn(el)) return false;
    return true;
  };
})();
