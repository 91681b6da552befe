/* The page's words in the reader's language, for the scripts of the table pages and the referee's console:
 * the page carries them as JSON ({% js_strings %}, plumbing/templatetags/js_strings.py), so a phone
 * offline keeps them with the page. window.klawerjasText(msgid, params) says one, with Django's "%(name)s"
 * placeholders filled from params (an English msgid when the page has no word for it).
 * Loaded (defer) before the scripts that use it; no inline scripts (the site's Content Security Policy). */
(function () {
  "use strict";
  var STRINGS = (function () {
    var s = document.getElementById("js-strings");
    try { return s ? JSON.parse(s.textContent) : {}; } catch (e) { return {}; }
  })();
  window.klawerjasText = function (msgid, params) {
    return (STRINGS[msgid] || msgid).replace(/%\((\w+)\)s/g, function (m, k) {
      return params && k in params ? String(params[k]) : m;
    });
  };
})();
