/* The table's queue: every entry made at the table (a going-on, a confirmation, a dispute, an "af") is first
 * stored on the phone (IndexedDB, through the vendored idb-keyval), with a client-generated id (a UUID), then
 * sent; with no network it waits, shown as "waiting to send" on the sheet and drawn dashed on the boem tree, and
 * survives a reload and a phone restart (the power cut). It is sent by itself, in order, when the network
 * returns (the "online" event, every 10 s, and at each page load).
 *
 * The entry's time: each keeps the time it was made at the table, by the server's clock as this phone last
 * saw it, and sends it (entered_at): the clock rules apply to that time, not to the time it arrived.
 *
 * Exactly once: the id is the write's idempotency key (the form's client_id): the server keeps each key's
 * answer (tables.services.table_write_once), so a copy sent twice writes one line.
 *
 * The sheet version: each entry carries the version of the table's sheet it was entered on (the page's, plus
 * one for each entry waiting ahead of it that writes the sheet). When another device or the referee changed the
 * sheet meanwhile (a "stale" answer: the server's version moved past the entry's), or the server refuses the
 * entry (a rule: "refused: <the rule's reason>"; the line was confirmed already), the queue stops there and
 * shows it to settle at the table, beside what the sheet holds now. Only a sheet that really changed names
 * "another phone or the referee". Nothing is dropped without a tap.
 *
 * The server's answers are the same as the table API's (tables/services.py: one service for every door).
 *
 * Forms with [data-queue] are taken over; without JavaScript they post as before (the server's pages).
 * No inline scripts (the site's Content Security Policy forbids them). */
(function () {
  "use strict";

  var kv = window.idbKeyval;
  if (!kv || !window.indexedDB || !window.fetch) return; // the forms post as before

  var REFRESH_MS = 10000;
  var BUMPS = {going_on: true, confirm: true, dispute: true, af: false}; // writes that move the sheet's version
  var syncing = false;

  // --- What the page says about its table ---------------------------------------------------------------
  function tableData() {
    var el = document.getElementById("table-data") || document.getElementById("table-page-data");
    try { return el ? JSON.parse(el.textContent) : null; } catch (e) { return null; }
  }
  var data = tableData();
  if (!data) return;
  var QUEUE = "table-queue:" + data.match + ":" + data.table;
  var SENT = "table-sent:" + data.match + ":" + data.table;
  var t = window.klawerjasText; // the page's words in the reader's language (static/js/strings.js)


  function uuid() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 15) | 64; b[8] = (b[8] & 63) | 128;
    var h = Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join("");
    return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
  }

  /** The server's time now, by this phone's clock corrected by the offset it keeps (static/js/clock.js): the
   * time an entry was made at the table, which it keeps while it waits (the server bounds it: never later than
   * its arrival, never before the last line on the sheet; tables/services.py entered_at_bound). */
  function serverNow() {
    var clock = window.klawerjasClock;
    return clock && clock.serverNow ? clock.serverNow() : Date.now();
  }

  function csrfToken() {
    var match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    if (match) return decodeURIComponent(match[1]);
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  function hhmm(iso) {
    var d = new Date(iso);
    return String(d.getHours()).padStart(2, "0") + ":" + String(d.getMinutes()).padStart(2, "0");
  }

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") node.textContent = attrs[k];
      else if (k === "className") node.className = attrs[k];
      else node.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) { if (c) node.appendChild(typeof c === "string" ? document.createTextNode(c) : c); });
    return node;
  }

  // --- The queue in IndexedDB -----------------------------------------------------------------------------
  function load() { return kv.get(QUEUE).then(function (q) { return q || []; }); }
  function change(fn) { return kv.update(QUEUE, function (q) { return fn(q || []); }); }

  /** The sheet version an entry added now is based on: the page's, plus the writes waiting ahead of it. */
  function predictedVersion(queue) {
    var base = tableData().version;
    return base + queue.filter(function (item) { return BUMPS[item.kind]; }).length;
  }

  function labelFor(kind, fields, form) {
    if (kind === "going_on") {
      var side = data[fields.side] || {};
      var strokes = fields.opponents_under_fifty === "no" ? 1 : Number(fields.strokes);
      return t("%(team)s on %(strokes)s", {team: side.team, strokes: strokes});
    }
    var label = form.dataset.label || "";
    if (kind === "confirm") return t("Confirmation of %(label)s", {label: label});
    if (kind === "dispute") return t("Dispute of %(label)s: “%(reason)s”", {label: label, reason: fields.reason || ""});
    return label || "“Af”";
  }

  function enqueue(kind, form, fields, extra) {
    delete fields.csrfmiddlewaretoken;
    delete fields.client_id;
    return change(function (queue) {
      var item = Object.assign({
        id: uuid(), kind: kind, url: form.getAttribute("action") || location.pathname, fields: fields,
        label: labelFor(kind, fields, form), enteredAt: new Date(serverNow()).toISOString(), state: "waiting",
        entry: form.dataset.entry ? Number(form.dataset.entry) : null, entryRef: null
      }, extra || {});
      if ("version" in fields && BUMPS[kind]) item.fields.version = String(predictedVersion(queue));
      queue.push(item);
      return queue;
    });
  }

  // --- Sending, in order, once each -------------------------------------------------------------------------
  function urlFor(item, sent) {
    var entry = item.entry || (item.entryRef ? sent[item.entryRef] : null);
    if (item.kind === "confirm" || item.kind === "dispute") {
      if (!entry) return null;
      return data.urls[item.kind].replace("/0/", "/" + entry + "/");
    }
    return item.url;
  }

  /** A going-on of 2 strokes answered "no, the opponents count 50 or more" is 1 stroke (Notes §VI): entries
   * queued before the server refused such a 2 (it once wrote them as 1) are sent as what they meant. */
  function meant(item) {
    var f = item.fields;
    if (item.kind === "going_on" && f.strokes === "2" && f.opponents_under_fifty === "no") f.strokes = "1";
    return item;
  }

  function send(item, sent) {
    var url = urlFor(item, sent);
    if (!url) return Promise.resolve({held: true});
    item = meant(item);
    var body = new URLSearchParams();
    Object.keys(item.fields).forEach(function (k) { body.append(k, item.fields[k]); });
    body.append("client_id", item.id);
    body.append("entered_at", item.enteredAt);
    return fetch(url, {
      method: "POST", credentials: "same-origin", body: body,
      headers: {"Accept": "application/json", "X-CSRFToken": csrfToken(), "Idempotency-Key": item.id}
    }).then(function (response) {
      var type = response.headers.get("Content-Type") || "";
      if (type.indexOf("application/json") < 0) return {signedOut: true, status: response.status};
      return response.json().then(function (answer) { answer.status = response.status; return answer; });
    });
  }

  function flash(text) {
    var main = document.querySelector("main");
    var list = main && main.querySelector(".messages");
    if (!main) return;
    if (!list) { list = el("ul", {className: "messages"}); main.insertBefore(list, main.firstChild); }
    list.innerHTML = "";
    list.appendChild(el("li", {className: "success", text: text}));
  }

  function refreshLive() {
    var live = document.getElementById("live");
    if (!live || !window.htmx) return Promise.resolve();
    return window.htmx.ajax("GET", data.urls.live, {source: live, target: live, swap: "morph:innerHTML"})
      .catch(function () {});
  }

  function sync() {
    if (syncing) return Promise.resolve();
    syncing = true;
    var sentAny = false, lastMessage = "";
    var run = function () {
      return Promise.all([load(), kv.get(SENT)]).then(function (loaded) {
        var queue = loaded[0], sent = loaded[1] || {};
        var item = queue[0];
        if (!item || item.state !== "waiting") return null; // empty, or held behind a conflict
        return send(item, sent).then(function (answer) {
          if (answer.held) {
            return change(function (q) { if (q[0] && q[0].id === item.id) q[0].state = "held"; return q; });
          }
          if (answer.signedOut) {
            signedOut(answer.status);
            return null;
          }
          if (answer.ok) {
            sentAny = true;
            lastMessage = answer.replayed ? t("Already received: %(message)s", {message: answer.message}) : answer.message;
            var keep = item.kind === "going_on" && answer.entry
              ? kv.update(SENT, function (m) { m = m || {}; m[item.id] = answer.entry; return m; })
              : Promise.resolve();
            return keep.then(function () {
              return change(function (q) { return q.filter(function (i) { return i.id !== item.id; }); });
            }).then(run);
          }
          sentAny = true; // the server answered: the sheet it holds now is shown beside the conflict
          return change(function (q) {
            if (q[0] && q[0].id === item.id) { q[0].state = "conflict"; q[0].answer = answer; }
            return q;
          });
        });
      });
    };
    return run().catch(function () { /* no network: it waits */ }).then(function () {
      syncing = false;
      var done = sentAny ? refreshLive() : Promise.resolve();
      return done.then(function () {
        if (sentAny && lastMessage) flash(lastMessage);
        return render();
      });
    });
  }

  function signedOut(status) {
    var box = document.getElementById("queue");
    if (box) {
      box.hidden = false;
      box.insertBefore(el("p", {className: "messages-like error", role: "alert", text:
        (status === 403 ? t("The server refused this phone's entries (its session ended): open the table again " +
                            "with its code. The entries below wait on this phone and are sent then.") :
         t("This phone is signed out of the table (the referee may have issued a new link): open the table again " +
           "with its code. The entries below wait on this phone and are sent then."))}),
        box.firstChild);
    }
  }

  // --- Settling a conflict ---------------------------------------------------------------------------------
  /** After a conflict: the entries left are based on the sheet as the server holds it now. */
  function rebase(queue, version) {
    var v = version;
    queue.forEach(function (item) {
      if ("version" in item.fields && BUMPS[item.kind]) { item.fields.version = String(v); v += 1; }
      if (item.state === "conflict" || item.state === "held") item.state = "waiting";
      delete item.answer;
    });
    return queue;
  }

  function settle(id, how) {
    return change(function (queue) {
      var item = queue.find(function (i) { return i.id === id; });
      if (!item) return queue;
      var version = item.answer && item.answer.server ? item.answer.server.version : tableData().version;
      if (how === "cut") item.fields.cut_before_interval = "yes"; // SAKBOC 2.2: the table says it was cut
      if (how === "drop") {
        var dropped = [id];
        queue = queue.filter(function (i) {
          if (i.id === id) return false;
          if (i.entryRef && dropped.indexOf(i.entryRef) >= 0) { dropped.push(i.id); return false; }
          return true;
        });
      }
      return rebase(queue, version);
    }).then(sync);
  }

  // --- Drawing what waits ----------------------------------------------------------------------------------
  var SVG = "http://www.w3.org/2000/svg";
  // The boem tree's geometry (matches/boem_svg.py): rungs at y = 28 + 18 i, the axis at x = 66, rungs ±30.
  function rungY(i) { return 28 + 18 * i; }
  function diagonal(side, won, strokes) {
    var first = won, last = won + strokes - 1;
    if (side === "home") return [66 - 36, rungY(first) - 7, 66 - 18, rungY(last) + 7];
    return [66 + 36, rungY(4 - first) + 7, 66 + 18, rungY(4 - last) - 7];
  }

  function emptyTree() {
    var svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("class", "boem-tree"); svg.setAttribute("viewBox", "0 0 132 134");
    svg.setAttribute("width", "132"); svg.setAttribute("height", "134"); svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", t("A new boem, waiting to send"));
    var axis = document.createElementNS(SVG, "line");
    [["x1", 66], ["y1", 18], ["x2", 66], ["y2", 110], ["stroke", "#1d2a22"], ["stroke-width", 2]].forEach(
      function (a) { axis.setAttribute(a[0], a[1]); });
    svg.appendChild(axis);
    for (var i = 0; i < 5; i++) {
      var rung = document.createElementNS(SVG, "line");
      [["x1", 36], ["y1", rungY(i)], ["x2", 96], ["y2", rungY(i)], ["stroke", "#1d2a22"], ["stroke-width", 1.5]]
        .forEach(function (a) { rung.setAttribute(a[0], a[1]); });
      svg.appendChild(rung);
    }
    return svg;
  }

  function drawWaiting(queue) {
    var live = document.getElementById("live");
    if (!live) return;
    live.querySelectorAll(".waiting-tree").forEach(function (n) { n.remove(); });
    live.querySelectorAll("line.waiting").forEach(function (n) { n.remove(); });
    var goings = queue.filter(function (i) { return i.kind === "going_on"; });
    if (!goings.length) return;
    var current = tableData().current;
    var figure = live.querySelector("figure.current");
    var svg = figure && figure.querySelector("svg");
    var won = {home: current ? current.home : 0, away: current ? current.away : 0};
    if (!svg) {
      var trees = live.querySelector(".boem-trees");
      if (!trees) return;
      var empty = trees.querySelector("p.muted");
      if (empty) empty.hidden = true;
      svg = emptyTree();
      figure = el("figure", {className: "current waiting-tree"}, [svg, el("figcaption", {text: t("Boem %(number)s · waiting to send",
        {number: (tableData().boems || 0) + 1})})]);
      trees.appendChild(figure);
    }
    goings.forEach(function (item) {
      var side = item.fields.side, strokes = item.fields.opponents_under_fifty === "no" ? 1 : Number(item.fields.strokes);
      if (won[side] + strokes > 5) return; // a new boem: the server draws it once sent
      var xy = diagonal(side, won[side], strokes);
      won[side] += strokes;
      var line = document.createElementNS(SVG, "line");
      line.setAttribute("class", "stroke waiting" + (item.state === "conflict" ? " conflict" : ""));
      [["x1", xy[0]], ["y1", xy[1]], ["x2", xy[2]], ["y2", xy[3]], ["stroke", item.state === "conflict" ? "#a4431b" : "#2f4387"],
       ["stroke-width", 2.5], ["stroke-linecap", "round"], ["stroke-dasharray", "1 4"]].forEach(
        function (a) { line.setAttribute(a[0], a[1]); });
      var title = document.createElementNS(SVG, "title");
      title.textContent = t("%(label)s: waiting to send", {label: item.label});
      line.appendChild(title);
      svg.appendChild(line);
    });
    var caption = figure.querySelector("figcaption");
    if (caption && !caption.querySelector(".waiting-note")) {
      caption.appendChild(el("span", {className: "waiting-note", text: " · " + t("dotted: waiting to send")}));
    }
  }

  /** The server's lines a queued confirmation or dispute will settle: their buttons give way to a note. */
  function markPending(queue) {
    var live = document.getElementById("live");
    if (!live) return;
    queue.forEach(function (item) {
      if (!item.entry || (item.kind !== "confirm" && item.kind !== "dispute")) return;
      var card = live.querySelector("#entry-" + item.entry);
      if (!card || card.querySelector(".queued-note")) return;
      var actions = card.querySelector(".row-actions");
      if (actions) actions.hidden = true;
      card.appendChild(el("p", {className: "queued-note"}, [el("span", {className: "tag waiting",
        text: item.kind === "confirm" ? t("confirmation waiting to send") : t("dispute waiting to send")})]));
    });
  }

  /** A "stale" answer where the server's sheet moved past the version this entry was entered on: another phone
   * or the referee wrote meanwhile. (A stale answer with the server behind this phone's count is this phone's
   * own bookkeeping, not someone else's write.) */
  function changedElsewhere(item) {
    var answer = item.answer || {}, server = answer.server || {};
    return answer.conflict === "stale" && "version" in item.fields &&
      Number(server.version) > Number(item.fields.version);
  }

  function serverVersion(item) {
    var server = item.answer.server || {};
    var lines = (server.lines || []).map(function (line) {
      return el("li", {text: line.label + " · " + line.state + " · " + line.at});
    });
    return el("div", {}, [
      el("h3", {text: changedElsewhere(item) ? t("The sheet now (another phone or the referee)") : t("The sheet now")}),
      el("p", {text: server.boem || ""}),
      lines.length ? el("ol", {}, lines) : el("p", {className: "muted", text: t("No lines yet.")})
    ]);
  }

  /** What happened to an entry the server did not take, in words: a rule's refusal gives its reason; only a
   * sheet that really changed names another phone or the referee. */
  function whatHappened(item) {
    var answer = item.answer, message = answer.message || "";
    if (answer.conflict === "stale") {
      return changedElsewhere(item)
        ? t("Conflict: the sheet changed on another phone or at the referee's while this one waited") + ": " + message
        : t("Conflict: the sheet is not as this phone last saw it");
    }
    if (answer.conflict === "already") return t("Conflict: settled already") + ": " + message;
    if (answer.conflict === "invalid") return t("Could not be read") + ": " + message;
    if (answer.conflict === "key") return t("Conflict: this entry's id was used for another entry") + ": " + message;
    return t("refused: %(reason)s", {reason: message});
  }

  function card(item, queue, index) {
    var opposing = item.kind === "going_on" ? data[item.fields.side === "home" ? "away" : "home"] : null;
    var conflict = item.state === "conflict" && item.answer;
    var behind = queue.slice(0, index).some(function (i) { return i.state !== "waiting"; });
    var tag = conflict ? el("span", {className: "tag warn", text: item.answer.conflict === "stale" ||
        item.answer.conflict === "already" ? t("conflict: settle it") : t("refused: settle it")})
      : el("span", {className: "tag waiting", text: behind ? t("waiting to send (after the conflict above)") : t("waiting to send")});
    var children = [el("p", {}, [el("strong", {text: item.label}), " ",
      el("span", {className: "muted", text: t("entered %(time)s", {time: hhmm(item.enteredAt)}) + " "}), tag])];
    if (conflict) {
      children.push(el("p", {className: "warning", text: whatHappened(item)}));
      children.push(el("div", {className: "conflict-versions"}, [
        el("div", {}, [el("h3", {text: t("This phone's entry")}), el("p", {text: t(
          "%(label)s (entered %(time)s, on the sheet as it was then)", {label: item.label, time: hhmm(item.enteredAt)})})]),
        serverVersion(item)
      ]));
      var actions = el("div", {className: "row-actions"});
      if (item.answer.refusal === "interval_cut_unasked") { // made after the interval was called (SAKBOC 2.2)
        actions.appendChild(el("button", {type: "button", className: "big", "data-settle": "cut", "data-id": item.id,
          text: t("It was cut before the interval: send it")}));
      } else if (item.answer.conflict === "stale") {
        actions.appendChild(el("button", {type: "button", className: "big", "data-settle": "resend", "data-id": item.id,
          text: t("Send mine on the sheet as it is now")}));
      } else if (item.answer.conflict !== "already") {
        actions.appendChild(el("button", {type: "button", className: "big", "data-settle": "resend", "data-id": item.id,
          text: t("Send it again")}));
      }
      actions.appendChild(el("button", {type: "button", className: "big secondary", "data-settle": "drop",
        "data-id": item.id, text: item.answer.conflict === "already" ? t("OK: drop mine") : t("Drop mine")}));
      children.push(actions);
    } else if (item.kind === "going_on" && opposing && opposing.telman) {
      var waitingConfirm = queue.some(function (i) { return i.entryRef === item.id; });
      if (!waitingConfirm) {
        children.push(el("div", {className: "row-actions"}, [
          el("button", {type: "button", className: "big confirm", "data-queue-confirm": item.id,
            text: t("Confirm: I am %(telman)s", {telman: opposing.telman})}),
          el("button", {type: "button", className: "button secondary", "data-queue-dispute": item.id, text: t("Dispute…")})
        ]));
        children.push(el("p", {className: "muted small", text: t("Only %(telman)s, %(team)s's telman, confirms or disputes this.",
          {telman: opposing.telman, team: opposing.team})}));
      }
    }
    return el("article", {className: "queued" + (conflict ? " conflict" : ""), id: "queued-" + item.id,
                          "aria-label": conflict ? t("Conflict: %(label)s", {label: item.label})
                            : t("Waiting to send: %(label)s", {label: item.label})}, children);
  }

  function render() {
    return load().then(function (queue) {
      var box = document.getElementById("queue");
      drawWaiting(queue);
      markPending(queue);
      if (!box) return;
      box.innerHTML = "";
      box.hidden = !queue.length;
      if (!queue.length) return;
      var conflicts = queue.filter(function (i) { return i.state === "conflict"; }).length;
      box.appendChild(el("h2", {text: conflicts ? t("To settle on this phone") : t("Waiting to send (%(count)s)", {count: queue.length})}));
      box.appendChild(el("p", {className: "muted small", text: conflicts
        ? t("The server did not take an entry as it stood: compare both versions and choose. The rest wait behind it.")
        : t("Kept on this phone; sent by itself, in order, as soon as the network returns.")}));
      queue.forEach(function (item, index) { box.appendChild(card(item, queue, index)); });
    });
  }

  // --- Taking over the forms -------------------------------------------------------------------------------
  function formFields(form, submitter) {
    var fd = submitter ? new FormData(form, submitter) : new FormData(form);
    var out = {};
    fd.forEach(function (value, key) { out[key] = String(value); });
    return out;
  }

  function ask(dialog, setup) {
    return new Promise(function (resolve) {
      setup(dialog);
      dialog.returnValue = "";
      dialog.addEventListener("close", function onClose() {
        dialog.removeEventListener("close", onClose);
        resolve(dialog.returnValue);
      });
      dialog.showModal();
    });
  }

  function afterEnqueue(form) {
    var leave = form.closest("[data-leave-after-queue]") || !document.getElementById("queue");
    if (leave) {
      location.href = data.urls.sheet;
      return Promise.resolve();
    }
    return render().then(sync);
  }

  function askDispute(label) {
    var dialog = document.getElementById("dispute-dialog");
    if (!dialog) return Promise.resolve(null);
    var textarea = dialog.querySelector("textarea");
    return ask(dialog, function (d) {
      d.querySelector("[data-label]").textContent = label;
      textarea.value = "";
      d.querySelector("[data-error]").hidden = true;
    }).then(function (value) {
      if (value !== "dispute") return null;
      var reason = textarea.value.trim();
      if (!reason) {
        dialog.querySelector("[data-error]").hidden = false;
        return askDispute(label);
      }
      return reason;
    });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    var kind = form.dataset && form.dataset.queue;
    if (!kind) return;
    event.preventDefault();
    var fields = formFields(form, event.submitter);
    var button = form.querySelector("button[type=submit]");
    if (button) { button.disabled = true; setTimeout(function () { button.disabled = false; }, 1200); }
    if (kind === "going_on" && fields.strokes === "2" && !fields.opponents_under_fifty) {
      var side = data[fields.side], other = data[fields.side === "home" ? "away" : "home"];
      ask(document.getElementById("two-strokes-dialog"), function (d) {
        d.querySelector("[data-team]").textContent = side.team;
        d.querySelector("[data-other]").textContent = other.team;
      }).then(function (answer) {
        if (answer !== "yes" && answer !== "no") return;
        fields.opponents_under_fifty = answer;
        if (answer === "no") fields.strokes = "1"; // Notes §VI: the opponents count 50 or more: 1 stroke
        enqueue(kind, form, fields).then(function () { return afterEnqueue(form); });
      });
      return;
    }
    enqueue(kind, form, fields).then(function () { return afterEnqueue(form); });
  }, true);

  document.addEventListener("click", function (event) {
    var target = event.target.closest("[data-dispute], [data-queue-confirm], [data-queue-dispute], [data-settle]");
    if (!target) return;
    event.preventDefault();
    if (target.dataset.settle) { settle(target.dataset.id, target.dataset.settle); return; }
    var fake = document.createElement("form");
    if (target.dataset.queueConfirm) {
      load().then(function (queue) {
        var going = queue.find(function (i) { return i.id === target.dataset.queueConfirm; });
        if (!going) return null;
        fake.dataset.label = going.label;
        return enqueue("confirm", fake, {version: "0"}, {entryRef: going.id}).then(function () { return afterEnqueue(fake); });
      });
      return;
    }
    var ref = target.dataset.queueDispute;
    load().then(function (queue) {
      var going = ref ? queue.find(function (i) { return i.id === ref; }) : null;
      var label = going ? going.label : target.dataset.label;
      return askDispute(label).then(function (reason) {
        if (!reason) return null;
        fake.dataset.label = label;
        if (!ref) fake.dataset.entry = target.dataset.dispute;
        return enqueue("dispute", fake, {version: "0", reason: reason}, {entryRef: ref || null})
          .then(function () { return afterEnqueue(fake); });
      });
    });
  });

  // --- When to send, when to draw --------------------------------------------------------------------------
  document.addEventListener("htmx:afterSwap", function () { data = tableData() || data; render(); });
  window.addEventListener("online", sync);
  setInterval(function () { load().then(function (q) { if (q.length && q[0].state === "waiting") sync(); }); }, REFRESH_MS);
  document.addEventListener("DOMContentLoaded", function () {
    render().then(sync);
  });

  window.klawerjasQueue = {load: load, sync: sync, render: render};
})();
