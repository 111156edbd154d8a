// webcalc: the table ledger's JavaScript. No inline script (CSP script-src 'self'); every
// string shown comes from the page (data-* attributes rendered in the page's language).
// Without JavaScript every form here still works: this file only
//   1. lets 记入 and 荒庄 post the room's form natively (htmx would send it as its GET),
//   2. follows the table with ONE poll (totals and hand list swapped together),
//   3. keeps this phone's list of tables (我的牌桌) in localStorage, and shows it;
//   4. without a network: taps on the palette fill the fields here, the page kept by the
//      service worker (static/sw.js) says since when it is offline, and the entries queued
//      by the service worker — or, with no worker (iOS WeChat), by this page in its own
//      storage — are shown with what each will record (the server's answers for each
//      outcome) and sent in order when the network is back, a refused one shown with the
//      server's table to re-apply or drop (docs/decisions.md, "Offline, install and
//      caching", "A queue without a service worker", "What a queued hand will record");
//      the screen kept awake on a table page.
(function () {
  "use strict";

  // -- 1. native submits out of the htmx form -------------------------------------------
  // The room's form is an htmx GET form. A button marked data-native-submit (记入, 荒庄)
  // posts the same form to its formaction instead: the browser does it, htmx must not. The
  // press first lets the form's own htmx request finish (the change that leaving a field
  // just sent): the button's action then names the state whose result is shown, which is
  // what the server records.
  var inFlight = 0;
  var lastChange = 0;       // when a field of the room last changed (htmx sends each change)
  var lastSwap = 0;         // when htmx last swapped an answer in
  var passing = null;       // the button whose submit is let through to the browser
  var WAIT_MAX = 8000;      // ms: after this the press goes anyway (the server still checks)

  document.addEventListener("htmx:before:request", function () { inFlight += 1; });
  document.addEventListener("htmx:finally:request", function () {
    inFlight = Math.max(0, inFlight - 1);
  });
  document.addEventListener("htmx:after:swap", function () { lastSwap = Date.now(); });
  // no answer will come (no network): the press need not wait for it
  document.addEventListener("htmx:error", function () { lastSwap = Date.now(); });
  document.addEventListener("change", function (event) {
    var t = event.target;
    if (t.form && t.form.id === "calc-form" && !(t.closest && t.closest("[data-no-live]"))) {
      lastChange = Date.now();
    }
  }, true);

  function pressWhenSettled(id) {
    var waited = 0;
    function tick() {
      var unanswered = inFlight > 0 || lastChange >= lastSwap && lastChange > 0;
      if (unanswered && waited < WAIT_MAX) {
        waited += 50;
        window.setTimeout(tick, 50);
        return;
      }
      var button = document.getElementById(id);   // (the swap may have made it anew)
      if (!button || !button.form) return;
      passing = button;
      if (button.form.requestSubmit) {
        button.form.requestSubmit(button);
      } else {
        button.click();
      }
    }
    window.setTimeout(tick, 0);                   // after htmx has seen the last change
  }

  document.addEventListener("submit", function (event) {
    var button = event.submitter;
    if (!button || !button.hasAttribute || !button.hasAttribute("data-native-submit")) return;
    event.stopPropagation();               // htmx listens on the form: it never sees this
    if (passing === button) {              // our own press: the browser posts the form
      passing = null;
      if (queuesHere(button)) {            // … or, with no network and no worker, this page
        event.preventDefault();
        queueHere(button);
      }
      return;
    }
    if (button.id === "draw" && !navigator.onLine) {   // 荒庄 offline: the confirm asked here
      event.preventDefault();
      var ask = document.getElementById("queue-badge");
      if (ask && !window.confirm(ask.dataset.drawAsk)) return;
      if (queuesHere(button)) { queueHere(button); return; }
      button.formAction = button.formAction.replace(/\/draw\?/, "/hands?");
      passing = button;
      button.form.requestSubmit ? button.form.requestSubmit(button) : button.click();
      return;
    }
    event.preventDefault();
    if (button.id) {
      pressWhenSettled(button.id);
    }
  }, true);

  // 记入 of a 自由记分 hand (a plain POST form, no htmx) without a network and without a
  // worker (iOS WeChat): queued here as the room's 记入 is, never sent to no network
  document.addEventListener("submit", function (event) {
    var button = event.submitter;
    if (!button || !button.form || button.form.id !== "free-form" || !queuesHere(button)) return;
    event.preventDefault();
    queueHere(button);
  }, true);

  // any other write of a table page (an adjustment, a void, an undo, a correction, the
  // settings) is not queued (docs/decisions.md "Offline writes that are not queued"): without
  // a network it would leave for the browser's error page and what was typed would be gone.
  // It stays here instead, what was typed kept, and says under its form that it was not
  // recorded (the words: the queue badge's data-not-recorded, as its other words). 记入 and 荒庄
  // (POST …/hands, …/draw) are the queue's: the worker's, else this page's.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var button = event.submitter;
    if (navigator.onLine || !form || !document.getElementById("table-meta")) return;
    var method = (button && button.getAttribute("formmethod")) || form.getAttribute("method") || "get";
    if (method.toLowerCase() !== "post") return;
    var action = button && button.hasAttribute("formaction") ? button.formAction : form.action;
    // …/t/<edit>/hands, also under a prefix (SCRIPT_NAME=/calc: /calc/t/<edit>/hands)
    if (/\/t\/[^/]+\/(hands|draw)$/.test(new URL(action, window.location.href).pathname)) return;
    event.preventDefault();
    notRecorded(form, button);
  }, true);

  function notRecorded(form, button) {
    // under the form's buttons; a hand's undo and void (one row) share one line under the row
    var row = form.closest && form.closest(".hand-actions");
    var after = row || (button && button.closest && button.closest(".actions"));
    if (after && !row && !form.contains(after)) after = null;
    var note = after ? after.nextElementSibling : form.querySelector(".offline-not-recorded");
    if (!note || !note.classList.contains("offline-not-recorded")) {
      note = el("p", "field-error offline-not-recorded");
      note.setAttribute("role", "alert");
      if (after) {
        after.parentNode.insertBefore(note, after.nextSibling);
      } else {
        form.appendChild(note);
      }
    }
    note.textContent = document.getElementById("queue-badge").dataset.notRecorded;
    if (note.scrollIntoView) note.scrollIntoView({block: "center"});
  }

  // without a network a palette key fills its field here (the server computes the result
  // when the entry is sent), and the URL keeps the room's state, as the server's answers do
  document.addEventListener("submit", function (event) {
    var button = event.submitter;
    if (navigator.onLine || !button || !button.form || !button.form.classList.contains("table-form")) return;
    if (button.name !== "add" && button.name !== "remove") return;
    event.stopPropagation();
    event.preventDefault();
    offlineTap(button);
  }, true);
  document.addEventListener("change", function (event) {
    var t = event.target;
    if (!navigator.onLine && t.form && t.form.id === "calc-form") keepState(t.form);
  });

  // an input that belongs to another form (the pasted table link) does not re-run the room
  document.addEventListener("change", function (event) {
    if (event.target.closest && event.target.closest("[data-no-live]")) {
      event.stopPropagation();
    }
  }, true);

  // -- 2. the live region: one poll -----------------------------------------------------
  var FAST = 2000;          // ms between polls while the page is seen
  var HIDDEN = 60000;       // while the tab is hidden
  var SLOWEST = 30000;      // the longest wait after failures
  var live = null;

  function two(n) { return (n < 10 ? "0" : "") + n; }
  function clock(d) { return two(d.getHours()) + ":" + two(d.getMinutes()) + ":" + two(d.getSeconds()); }

  function say() {
    var el = document.getElementById("live-status");
    if (!el || !live) return;
    var text = live.failures ? el.dataset.offline : el.dataset.updated;
    var time = clock(live.heard);
    if (live.copy && live.failures) {          // the page this phone kept, shown offline
      text = el.dataset.copy;
      time = time.slice(0, 5);
    }
    el.textContent = (text || "").replace("{time}", time);
    el.classList.toggle("offline", live.failures > 0);
    el.hidden = false;
  }

  function schedule() {
    if (!live) return;
    window.clearTimeout(live.timer);
    var wait = FAST;
    if (document.hidden) {
      wait = HIDDEN;
    } else if (live.failures) {
      wait = Math.min(SLOWEST, FAST * Math.pow(2, live.failures));
    }
    live.timer = window.setTimeout(poll, wait);
  }

  function busyInside(region) {
    var a = document.activeElement;
    return a && region && region.contains(a) && /^(INPUT|TEXTAREA|SELECT)$/.test(a.tagName) &&
      a.value !== a.defaultValue;
  }

  function swap(text) {
    var doc = new DOMParser().parseFromString(text, "text/html");
    var ids = ["live-top", "live"];
    for (var i = 0; i < ids.length; i++) {       // a void reason being typed: wait for it
      if (busyInside(document.getElementById(ids[i]))) return false;
    }
    live.polls += 1;
    ids.forEach(function (id) {
      var now = document.getElementById(id);
      var next = doc.getElementById(id);
      if (now && next) {
        next.setAttribute("data-poll", String(live.polls));
        now.replaceWith(document.adoptNode(next));
      }
    });
    return true;
  }

  function poll() {
    if (!live || live.busy) return;
    live.busy = true;
    var headers = {"Accept": "text/html"};
    if (live.etag) headers["If-None-Match"] = '"' + live.etag + '"';
    fetch(live.url, {headers: headers, cache: "no-store", credentials: "same-origin"})
      .then(function (resp) {
        if (resp.status === 304) return null;
        if (!resp.ok) throw new Error(String(resp.status));
        var etag = (resp.headers.get("ETag") || "").replace(/^W\//, "").replace(/"/g, "");
        return resp.text().then(function (text) {
          if (window.caches) {          // the phone's copy, for the page kept offline (sw.js)
            window.caches.open(TABLES_CACHE).then(function (c) {
              return c.put(window.location.origin + live.url.split("?")[0],
                           new Response(text, {headers: {"Content-Type": "text/html; charset=utf-8"}}));
            }).catch(function () {});
          }
          if (swap(text) && etag) live.etag = etag;
        });
      })
      .then(function () {
        live.failures = 0;
        live.heard = new Date();
        if (office.table) askOutcomes();        // (the table may have moved on)
        var meta = document.getElementById("table-meta");
        if (meta) heard(meta.dataset.edit || meta.dataset.view, live.heard.getTime());
        if (live.copy || office.pending) backOnline();   // the queue, then the page itself
      }, function () {
        live.failures += 1;
      })
      .then(function () {
        live.busy = false;
        say();
        schedule();
      });
  }

  function startLive() {
    var top = document.querySelector("[data-live-url]");
    if (!top || !window.fetch || !window.DOMParser) return;
    live = {url: top.dataset.liveUrl, etag: top.dataset.etag, failures: 0, polls: 0,
            heard: new Date(), timer: null, busy: false};
    say();
    schedule();
    document.addEventListener("visibilitychange", function () {
      if (!document.hidden) {
        window.clearTimeout(live.timer);
        poll();                               // back in view: ask at once
      } else {
        schedule();
      }
    });
    window.addEventListener("online", function () { window.clearTimeout(live.timer); poll(); });
    window.addEventListener("offline", function () { live.failures = Math.max(1, live.failures); say(); });
  }

  // -- 3. this phone's tables (我的牌桌) ---------------------------------------------------
  var KEY = "webcalc.tables.v1";
  var KEEP = 50;

  function load() {
    try {
      var list = JSON.parse(window.localStorage.getItem(KEY) || "[]");
      return Array.isArray(list) ? list.filter(function (t) { return t && t.view; }) : [];
    } catch (e) {
      return [];
    }
  }

  function store(list) {
    try {
      window.localStorage.setItem(KEY, JSON.stringify(list.slice(0, KEEP)));
    } catch (e) { /* private mode, full: the list is only a convenience */ }
  }

  function remember() {
    var meta = document.getElementById("table-meta");
    if (!meta) return;
    var list = load();
    var old = null;
    list = list.filter(function (t) {
      if (t.view === meta.dataset.view) { old = t; return false; }
      return true;
    });
    list.unshift({
      view: meta.dataset.view,
      edit: meta.dataset.edit || (old && old.edit) || "",   // a view page keeps a known edit link
      variant: meta.dataset.variant,
      label: meta.dataset.label,
      names: meta.dataset.names,
      created: meta.dataset.created,
      seen: Date.now()
    });
    store(list);
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function showMine() {
    var ul = document.getElementById("my-tables");
    if (!ul) return;
    var d = ul.dataset;
    var list = load();
    ul.textContent = "";
    list.forEach(function (t) {
      var li = el("li", "my-table");
      li.setAttribute("data-view", t.view);
      var head = el("div", "my-table-head");
      head.appendChild(el("strong", "my-table-names", t.names || t.view));
      head.appendChild(el("span", "my-table-variant", t.label || t.variant || ""));
      if (t.created) head.appendChild(el("span", "my-table-date", d.opened.replace("{date}", t.created)));
      li.appendChild(head);
      var links = el("div", "my-table-links");
      if (t.edit) {
        var a = el("a", "button my-table-edit", d.edit);
        a.href = t.edit;
        links.appendChild(a);
      }
      var v = el("a", "button secondary my-table-view", d.view);
      v.href = t.view;
      links.appendChild(v);
      var forget = el("button", "secondary my-table-forget", d.forget);
      forget.type = "button";
      forget.addEventListener("click", function () {
        if (!window.confirm(t.edit ? d.confirmEdit : d.confirmView)) return;
        store(load().filter(function (x) { return x.view !== t.view; }));
        forgetOffline(t);
        var status = document.getElementById("my-tables-status");
        if (status) status.textContent = d.forgot.replace("{name}", t.names || "");
        showMine();
      });
      links.appendChild(forget);
      li.appendChild(links);
      ul.appendChild(li);
    });
    var empty = document.getElementById("my-tables-empty");
    if (empty) empty.hidden = list.length > 0;
  }

  // the calculator's 记入牌桌: the tables this phone can record on, each a link to its entry
  // with the calculator's state (the same query string)
  function showSend() {
    var held = document.getElementById("send-held");
    var ul = document.getElementById("send-list");
    if (!held || !ul) return;
    var tables = load().filter(function (t) { return t.edit; });
    ul.textContent = "";
    tables.forEach(function (t) {
      var li = el("li", "send-item");
      var name = (t.names || "") + " · " + (t.label || t.variant || "") + (t.created ? " · " + t.created : "");
      if (t.variant === held.dataset.variant) {
        var a = el("a", "button send-to", name);
        a.href = t.edit + (held.dataset.state ? "?" + held.dataset.state : "");
        li.appendChild(a);
      } else {
        li.className = "send-item send-other";
        li.appendChild(el("span", "send-name", name));
        li.appendChild(el("span", "send-why", " — " + held.dataset.other.replace("{variant}", t.label || t.variant)));
      }
      ul.appendChild(li);
    });
    held.hidden = tables.length === 0;
  }


  // -- 4. without a network ---------------------------------------------------------------
  var SUITS = "mpsz";
  var HEARD_KEY = "webcalc.heard.v1";       // {table path: when the server last answered}
  var TABLES_CACHE = "webcalc-tables";      // the service worker's copies (static/sw.js)

  function codes(text) {                    // "123m 5z" → ["1m", "2m", "3m", "5z"]
    var out = [];
    var digits = "";
    (text || "").replace(/\s+/g, "").split("").forEach(function (c) {
      if (/[0-9]/.test(c)) { digits += c; return; }
      if (SUITS.indexOf(c) >= 0) {
        digits.split("").forEach(function (d) { out.push(d + c); });
      }
      digits = "";
    });
    return out;
  }

  function order(a, b) {
    return SUITS.indexOf(a[1]) - SUITS.indexOf(b[1]) || a.charCodeAt(0) - b.charCodeAt(0);
  }

  function field(form, name) { return form.elements[name] && form.elements[name].value !== undefined ? form.elements[name] : null; }

  // the hand as tiles (the palette keys' own drawings), its count, and the state in the URL
  function drawHand(form) {
    var hand = field(form, "hand");
    var row = form.querySelector(".hand-tiles");
    if (!hand || !row) return;
    Array.prototype.slice.call(row.children).forEach(function (c) {
      if (!c.classList.contains("meld-chips")) c.remove();
    });
    var tiles = codes(hand.value).sort(order);
    var melds = row.querySelector(".meld-chips");
    tiles.forEach(function (code) {
      var key = form.querySelector("button.key[value='" + code + "'] .tile");
      if (!key) return;
      var cell = el("span", "tile-btn tile-offline");
      cell.appendChild(key.cloneNode(true));
      row.insertBefore(cell, melds);
    });
    var count = form.querySelector("#hand-row-label .count");
    if (count && count.dataset.count) count.textContent = count.dataset.count.replace("{n}", String(tiles.length));
  }

  function keepState(form) {
    var params = new URLSearchParams();
    new FormData(form).forEach(function (v, k) {
      if (v !== "" && k !== "number" && k !== "csrf_token") params.append(k, v);
    });
    window.history.replaceState(null, "", window.location.pathname + "?" + params.toString());
  }

  function offlineTap(button) {
    var form = button.form;
    var target = form.querySelector("input[name=target]:checked");
    var name = button.name === "remove" ? "hand" : (target ? target.value : "hand");
    var f = field(form, name === "melds" ? "melds" : name);
    if (!f) return;
    if (button.name === "remove") {                      // the n-th tile of the hand, sorted
      var tiles = codes(f.value).sort(order);
      tiles.splice(Number(button.value), 1);
      f.value = tiles.join("");
    } else if (name === "hand" || name === "visible") {
      f.value = (f.value + " " + button.value).trim();
    } else if (name === "indicator" || name === "winning_tile") {
      f.value = button.value;
      var hand = field(form, "hand");               // a 13-tile hand: the 14th tile (tap.py)
      if (name === "winning_tile" && hand && codes(hand.value).length === 13 &&
          !(field(form, "melds") || {}).value) {
        hand.value = (hand.value + " " + button.value).trim();
      }
    } else if (name === "melds") {
      var kind = (field(form, "meld_type") || {}).value || "pong";
      var from = (field(form, "meld_from") || {}).value || "";
      var words = {pong: "碰", chow: "吃", kong: "明杠", added_kong: "补杠", concealed_kong: "暗杠", shi: "拾", qiang: "搶"};
      var r = Number(button.value[0]), suit = button.value[1];
      var meld = kind === "chow" ? (r <= 7 && suit !== "z" ? "" + r + (r + 1) + (r + 2) + suit : "")
        : kind === "shi" || kind === "qiang" ? button.value
        : new Array(kind === "pong" ? 4 : 5).join(String(r)) + suit;
      if (!meld) return;
      if (from && kind !== "concealed_kong") meld += "@" + from;
      f.value = (f.value + " " + words[kind] + meld).trim();
    }
    drawHand(form);
    keepState(form);
  }

  // a room's state in the URL put back into the form of a kept copy (an offline reload)
  function restoreState(form) {
    var params = new URLSearchParams(window.location.search);
    var names = {};
    params.forEach(function (v, k) { names[k] = true; });
    if (!names.form_variant) return;
    Array.prototype.forEach.call(form.elements, function (e) {
      if (!e.name || !names[e.name] || e.type === "hidden" || e.type === "submit") return;
      var values = params.getAll(e.name);
      if (e.type === "checkbox" || e.type === "radio") {
        e.checked = values.indexOf(e.value) >= 0;
      } else {
        e.value = values[values.length - 1];
      }
    });
    drawHand(form);
  }

  function heard(path, when) {
    var all = {};
    try { all = JSON.parse(window.localStorage.getItem(HEARD_KEY) || "{}") || {}; } catch (e) { all = {}; }
    if (when === undefined) return all[path] || 0;
    all[path] = when;
    try { window.localStorage.setItem(HEARD_KEY, JSON.stringify(all)); } catch (e) { /* a convenience */ }
    return when;
  }

  // the queue (written by the service worker, static/sw.js: the same database)
  function queueDb(work) {
    return new Promise(function (resolve, reject) {
      var open;
      try { open = window.indexedDB.open("webcalc", 1); } catch (e) { reject(e); return; }   // none, or refused
      open.onupgradeneeded = function () { open.result.createObjectStore("queue", {keyPath: "id", autoIncrement: true}); };
      open.onerror = function () { reject(open.error); };
      open.onsuccess = function () {
        var db = open.result;
        var tx, out;
        try {
          tx = db.transaction("queue", "readwrite");
          out = work(tx.objectStore("queue"));
        } catch (e) { db.close(); reject(e); return; }
        tx.oncomplete = function () { db.close(); resolve(out && out.result !== undefined ? out.result : out); };
        tx.onerror = function () { db.close(); reject(tx.error); };
      };
    });
  }

  // One queue owner at a time: with a service worker in control, it queues the 记入 that
  // does not reach the server (IndexedDB, above); without one (iOS WeChat, workers blocked)
  // this page queues it itself, in localStorage, else in that same IndexedDB store, else in
  // memory (a storage that throws: private mode, full). flush() sends from all of them, each
  // entry under its idempotency key, so an entry is recorded once whoever queued it.
  var LOCAL_QUEUE = "webcalc.queue.v1";
  var memory = [];

  function workerOwns() {
    return !!(navigator.serviceWorker && navigator.serviceWorker.controller);
  }

  // a 记入 or 荒庄 of the next hand, with no network and no service worker to queue it
  function queuesHere(button) {
    if (navigator.onLine || workerOwns() || !office.table || !button.formAction) return false;
    return /\/(hands|draw)$/.test(new URL(button.formAction, window.location.href).pathname);
  }

  function localAll() {
    try {
      var list = JSON.parse(window.localStorage.getItem(LOCAL_QUEUE) || "[]");
      return Array.isArray(list) ? list.filter(function (e) { return e && e.table; }) : [];
    } catch (e) {
      return [];
    }
  }

  function localPut(list) {
    try {
      if (list.length) { window.localStorage.setItem(LOCAL_QUEUE, JSON.stringify(list)); } else { window.localStorage.removeItem(LOCAL_QUEUE); }
      return true;
    } catch (e) {
      return false;
    }
  }

  function tag(list, store) { return list.map(function (e) { e.store = store; return e; }); }

  function queued(table) {
    return queueDb(function (store) { return store.getAll(); }).then(null, function () { return []; })
      .then(function (fromDb) {
        var seen = {};
        return tag(fromDb || [], "idb").concat(tag(localAll(), "local"), tag(memory.slice(), "memory"))
          .filter(function (e) {
            if (e.table !== table) return false;
            var id = sameEntry(e);
            if (id && seen[id]) return false;            // one entry: one key, one body
            if (id) seen[id] = true;
            return true;
          })
          .sort(function (a, b) { return (a.created || 0) - (b.created || 0) || (String(a.id) < String(b.id) ? -1 : 1); });
      });
  }

  // what makes two queued entries the same entry (copies of it in two stores, a double tap):
  // its key and its fields; another entry under a key already queued (two tabs on one
  // entry's page) is another, for the server to refuse and the page to offer again. Null:
  // an entry without a key, only ever itself
  function sameEntry(e) {
    return e.key ? e.key + "\n" + e.body : null;
  }

  // entries out of every store (an entry's copies too)
  function unqueue(entries) {
    var same = {}, ids = {};
    entries.forEach(function (e) { if (e.key) same[sameEntry(e)] = true; ids[String(e.id)] = true; });
    function gone(e) { return (e.key && same[sameEntry(e)]) || ids[String(e.id)]; }
    memory = memory.filter(function (e) { return !gone(e); });
    var local = localAll();
    if (local.some(gone)) localPut(local.filter(function (e) { return !gone(e); }));
    return queueDb(function (store) {
      var all = store.getAll();
      all.onsuccess = function () {
        (all.result || []).forEach(function (e) { if (gone(e)) store.delete(e.id); });
      };
    }).then(null, function () {});
  }

  // entries written back (renumbered) into the store each came from
  function requeue(entries) {
    var byStore = {idb: [], local: [], memory: []};
    entries.forEach(function (e) { (byStore[e.store || "idb"] || byStore.idb).push(e); });
    function merge(list, changed) {
      return list.map(function (e) {
        var c = changed.filter(function (x) { return String(x.id) === String(e.id); })[0];
        return c || e;
      });
    }
    memory = merge(memory, byStore.memory);
    if (byStore.local.length) localPut(merge(localAll(), byStore.local));
    if (!byStore.idb.length) return Promise.resolve();
    return queueDb(function (store) { byStore.idb.forEach(function (e) { store.put(e); }); });
  }

  // this page queues an entry itself (no service worker): localStorage, else IndexedDB,
  // else memory; a second tap under the same key is the same entry
  function addHere(entry) {
    entry.id = "l" + Date.now().toString(36) + Math.random().toString(36).slice(2, 8);
    var list = localAll();
    // the same entry again: once (as static/sw.js's queueAdd); another under its key is kept
    if (list.some(function (e) { return e.key && sameEntry(e) === sameEntry(entry); })) return Promise.resolve("local");
    if (localPut(list.concat([entry]))) return Promise.resolve("local");
    var id = entry.id;
    delete entry.id;
    return queueDb(function (store) { store.add(entry); }).then(function () { return "idb"; }, function () {
      entry.id = id;
      memory.push(entry);
      return "memory";
    });
  }

  function param(url, name) {
    return new URLSearchParams(url.split("?")[1] || "").get(name);
  }

  function withParam(url, name, value) {
    var parts = url.split("?");
    var params = new URLSearchParams(parts[1] || "");
    if (value === null) { params.delete(name); } else { params.set(name, value); }
    return parts[0] + "?" + params.toString();
  }

  // the entries after a refused one follow the table as it is now: hand n, n + 1, …
  function renumber(entries, n) {
    entries.forEach(function (e, i) {
      e.url = withParam(e.url, "expected_number", String(n + i));
      var body = new URLSearchParams(e.body);
      if (body.has("number")) body.set("number", String(n + i));
      e.body = body.toString();
    });
    return entries;
  }

  function summary(entry, data) {
    var body = new URLSearchParams(entry.body);
    var n = param(entry.url, "expected_number") || "?";
    var names = (data.names || "").split(" · ");
    var winner = body.get("s_winner");
    if (body.has("mode") && data.points) return freeSummary(body, n, names, data);
    if (param(entry.url, "draw") || winner === "none") return data.draw.replace("{n}", n);
    if (winner === null || winner === "" || !names[Number(winner)]) return data.nowinner.replace("{n}", n);
    var tiles = codes(body.get("hand")).sort(order).reduce(function (out, c) {   // 123m 456p
      var last = out[out.length - 1];
      if (last && last.slice(-1) === c[1]) { out[out.length - 1] = last.slice(0, -1) + c[0] + c[1]; } else { out.push(c); }
      return out;
    }, []).join(" ");
    return data.win.replace("{n}", n).replace("{who}", names[Number(winner)]).replace("{tiles}", tiles || data.notiles);
  }

  // a 自由记分 hand (templates/_free_entry.html): the four amounts as the server will record
  // them, the winner's the sum of what the others pay; summed in ten-thousandths (the
  // server's 4 decimals), never in floats
  function freeSummary(body, n, names, data) {
    function units(text) {
      var m = /^\s*([+-]?)(\d{0,7})(?:\.(\d{0,4}))?\s*$/.exec((text || "").replace(/[−－]/g, "-"));
      if (!m || (!m[2] && !m[3])) return text && text.trim() ? null : 0;
      var v = Number(m[2] || "0") * 10000 + Number(((m[3] || "") + "0000").slice(0, 4));
      return m[1] === "-" ? -v : v;
    }
    function shown(v) {
      var sign = v < 0 ? "-" : v > 0 ? "+" : "";
      var a = Math.abs(v), whole = Math.floor(a / 10000), frac = String(a % 10000 + 10000).slice(1).replace(/0+$/, "");
      return sign + whole + (frac ? "." + frac : "");
    }
    var amounts = [0, 1, 2, 3].map(function (i) { return units(body.get("p" + i)); });
    var w = body.get("winner");
    if (body.get("mode") === "winner" || (amounts.every(function (v) { return v === 0; }) && w)) {
      var total = 0;
      amounts = [0, 1, 2, 3].map(function (i) {
        if (String(i) === w) return 0;
        var v = units(body.get("pay" + i));
        if (v !== null) total += v;
        return v === null ? null : -v;
      });
      if (/^[0-3]$/.test(w || "")) amounts[Number(w)] = total;
    }
    var text = amounts.map(function (v, i) { return (names[i] || "") + " " + (v === null ? "?" : shown(v)); }).join(" · ");
    return data.points.replace("{n}", n).replace("{amounts}", text);
  }

  var office = {table: null, flushing: false, pending: 0, entries: [], retry: null};

  // -- what a queued hand will record (issue 36.2) ---------------------------------------
  // The server computes, for the entry's inputs as they are (跑, 加钢, kongs …), what each
  // outcome of a hand without tiles records, for each dealer: GET <table>/outcomes answers
  // {"dealer", "version", "outcomes": {"dealer:winner:win_by:discarder": [nets, next
  // dealer]}} (webcalc/web/ledger_pages.py, the ledger's own computation). A queued hand
  // whose inputs are those, without tiles or 番, reads its nets and next dealer there, the
  // dealer following the queued hands before it; anything else is "to be confirmed".
  var OUTCOMES_KEY = "webcalc.outcomes.v1";
  var OUTCOME_FIELDS = ["s_winner", "s_discarder", "s_dealer", "win_by"];
  var TILE_FIELDS = ["hand", "melds", "indicator", "visible", "winning_tile", "history"];
  var outcomesNow = null;           // {path, sig, dealer, version, outcomes}
  var outcomesAsked = null;

  // the inputs an outcome does not vary: the settlement's and the kongs' fields
  function sigOf(pairs) {
    var out = [];
    pairs.forEach(function (v, k) {
      if (typeof v === "string" && /^[sk]_/.test(k) && OUTCOME_FIELDS.indexOf(k) < 0) out.push(k + "=" + v);
    });
    return out.sort().join("&");
  }

  function formPairs(form) {
    var body = new URLSearchParams();
    new FormData(form).forEach(function (v, k) { if (typeof v === "string") body.append(k, v); });
    return body;
  }

  function keptOutcomes(path) {
    try {
      var all = JSON.parse(window.localStorage.getItem(OUTCOMES_KEY) || "{}") || {};
      return all[path] || null;
    } catch (e) {
      return null;
    }
  }

  function keepOutcomes(o) {
    try {
      var all = JSON.parse(window.localStorage.getItem(OUTCOMES_KEY) || "{}") || {};
      all = {};                                    // this table's only: a few KB at most
      all[o.path] = o;
      window.localStorage.setItem(OUTCOMES_KEY, JSON.stringify(all));
    } catch (e) { /* memory only */ }
  }

  function pageVersion() {
    var top = document.getElementById("live-top");
    return top ? Number(top.dataset.version) || 0 : 0;
  }

  function askOutcomes() {
    var bar = document.getElementById("record-bar");
    var form = document.getElementById("calc-form");
    if (!bar || !bar.dataset.outcomesUrl || !form || !office.table || !window.fetch) return;
    var pairs = formPairs(form);
    var sig = sigOf(pairs);
    if (outcomesNow && outcomesNow.sig === sig && outcomesNow.version >= pageVersion()) return;
    if (!navigator.onLine || outcomesAsked === sig + "@" + pageVersion()) return;
    outcomesAsked = sig + "@" + pageVersion();
    var query = new URLSearchParams();
    pairs.forEach(function (v, k) {
      if (k !== "csrf_token" && k !== "number" && OUTCOME_FIELDS.indexOf(k) < 0 &&
          TILE_FIELDS.indexOf(k) < 0 && !/^d_/.test(k)) query.append(k, v);
    });
    fetch(bar.dataset.outcomesUrl + "?" + query.toString(), {credentials: "same-origin", cache: "no-store"})
      .then(function (resp) { return resp.ok ? resp.json() : null; })
      .then(function (data) {
        if (!data || !data.outcomes) return;
        outcomesNow = {path: office.table, sig: sig, dealer: data.dealer, version: data.version,
                       outcomes: data.outcomes};
        keepOutcomes(outcomesNow);
        if (office.entries.length) showQueue(office.entries);
      }, function () { outcomesAsked = null; });
  }

  // the lookup key of an entry's outcome with ``dealer`` dealing, or null (tiles, 番 …)
  function outcomeKey(dealer, entry, body) {
    var from = body.get("s_discarder") || "";
    if (param(entry.url || "", "draw") || body.get("draw") || body.get("s_winner") === "none") {
      return from ? null : dealer + ":none::";
    }
    if (TILE_FIELDS.some(function (n) { return (body.get(n) || "").trim(); })) return null;
    var declared = false;
    body.forEach(function (v, k) { if (/^d_/.test(k) && v.trim()) declared = true; });
    if (declared) return null;
    var winner = body.get("s_winner") || "";
    if (!/^[0-3]$/.test(winner)) return null;
    return [dealer, winner, body.get("win_by") || "self_draw", from].join(":");
  }

  // each entry's {dealer, nets, next}: known where the server's answers say, in order
  function foresee(entries) {
    var o = outcomesNow;
    var dealer = o ? o.dealer : null;
    return entries.map(function (e) {
      var body = new URLSearchParams(e.body);
      var r = {dealer: dealer, nets: null, next: null};
      if (o && dealer !== null && sigOf(body) === o.sig) {
        var key = outcomeKey(dealer, e, body);
        var hit = key && o.outcomes[key];
        if (hit) { r.nets = hit[0]; r.next = hit[1]; }
      }
      dealer = r.next;
      return r;
    });
  }

  function names() {
    return ((document.getElementById("table-meta") || {dataset: {}}).dataset.names || "").split(" · ");
  }

  function netsLine(cls, nets, labels, pending) {
    var line = el("span", cls);
    if (!nets) {
      line.appendChild(el("span", "net-pending", pending));
      return line;
    }
    line.setAttribute("data-nets", nets.join(" "));
    nets.forEach(function (n, i) {
      var one = el("span", "quick-net" + (n.charAt(0) === "+" ? " gain" : n.charAt(0) === "-" ? " loss" : ""), labels[i] + " ");
      one.appendChild(el("b", "", n));
      line.appendChild(one);
      line.appendChild(document.createTextNode(" "));
    });
    return line;
  }

  // the seats whose 跑 this entry changes (from the hand before it, or the page's)
  function paoChanges(body, before) {
    var who = names();
    var out = [];
    for (var i = 0; i < 4; i++) {
      var now = body.get("s_pao" + i);
      var was = before(i);
      if (now !== null && was !== null && String(Number(now) || 0) !== String(Number(was) || 0)) {
        out.push(who[i] + " " + (Number(was) || 0) + "→" + (Number(now) || 0));
      }
    }
    return out.join(" · ");
  }

  function paoBefore(entries, i) {
    return function (seat) {
      if (i > 0) return new URLSearchParams(entries[i - 1].body).get("s_pao" + seat);
      var input = document.querySelector("#calc-form input[name=s_pao" + seat + "]");
      return input ? input.defaultValue : null;
    };
  }

  // the entry's dealer: the table's, moved on by the queued hands (or not known)
  function showDealer(seen) {
    var bar = document.getElementById("record-bar");
    var fixed = document.querySelector("#dealer-fixed strong");
    if (!bar || !fixed || !bar.dataset.seats || !seen.length) return;
    var last = seen[seen.length - 1].next;
    fixed.textContent = last === null ? bar.dataset.pending : bar.dataset.seats.split("|")[last];
    fixed.parentNode.classList.toggle("pending", last === null);
    var room = document.querySelector("#fixed-room .fixed-dealer");
    if (room) room.textContent = last === null ? bar.dataset.pending : names()[last];
  }

  // R3: the 记入 box without a network says what the chosen outcome will record
  function previewEntry() {
    var bar = document.getElementById("record-bar");
    var form = document.getElementById("calc-form");
    var what = document.getElementById("record-what");
    if (!bar || !form || !what || !bar.dataset.outcomesUrl || navigator.onLine) return;
    var body = formPairs(form);
    var winner = body.get("s_winner");
    what.textContent = "";
    if (!winner) {
      what.appendChild(el("span", "muted", bar.dataset.nothing));
    } else {
      var seen = foresee(office.entries.concat([{url: "", body: body.toString()}]));
      what.appendChild(el("span", "record-label", bar.dataset.recording));
      if (winner === "none") what.appendChild(el("span", "", " " + bar.dataset.drawn));
      what.appendChild(document.createTextNode(" "));
      what.appendChild(netsLine("record-nets", seen[seen.length - 1].nets, bar.dataset.short.split("|"), bar.dataset.pending));
    }
    what.appendChild(el("span", "help queued-hint", " " + bar.dataset.queuedHint));
  }

  function showQueue(entries) {
    office.entries = entries;
    office.pending = entries.length;
    var badge = document.getElementById("queue-badge");
    if (!badge) return;
    var data = Object.assign({names: names().join(" · ")}, badge.dataset);
    badge.querySelector(".queue-count").textContent = data.count.replace("{n}", String(entries.length));
    var list = badge.querySelector(".queue-list");
    list.textContent = "";
    var seen = foresee(entries);
    var who = names();
    entries.forEach(function (e, i) {
      var li = el("li", "queued-hand");
      li.appendChild(el("span", "queued-what", summary(e, data)));
      list.appendChild(li);
      // a 自由记分 hand's summary is its four amounts, exactly as recorded, and no rule
      // moves its dealer: nothing is left for the server to confirm
      if (data.points && new URLSearchParams(e.body).has("mode")) return;
      li.appendChild(document.createTextNode(" "));
      li.appendChild(netsLine("queued-nets", seen[i].nets, who, data.pending));
      var pao = paoChanges(new URLSearchParams(e.body), paoBefore(entries, i));
      if (pao) li.appendChild(el("span", "queued-pao", " " + data.pao.replace("{what}", pao)));
      var next = seen[i].next;
      li.appendChild(el("span", "queued-dealer", " " + data.next.replace("{who}", next === null ? data.pending : who[next])));
    });
    badge.hidden = entries.length === 0;
    if (!data.points) showDealer(seen);
    previewEntry();
  }

  // 记入 (or 荒庄) without a network and without a service worker: this page queues the
  // entry as the worker would have (the same fields, the same action less ``shown``), then
  // clears the entry for the next hand, as the table page after a record shows it
  function queueHere(button) {
    var form = button.form;
    var action = new URL(button.formAction, window.location.href);
    var params = action.searchParams;
    params.delete("shown");          // computed from its fields when sent (no result was shown)
    var body = formPairs(form);
    if (button.name === "csrf_token") {
      body.delete("csrf_token");
      body.append("csrf_token", button.value);         // the page's table proof
    } else if (button.name) {
      body.set(button.name, button.value);             // a free hand's mode (its own proof is a field)
    }
    var entry = {table: office.table, url: action.pathname.replace(/\/draw$/, "/hands") + "?" + params.toString(),
                 body: body.toString(), key: params.get("idempotency_key") || "", created: Date.now()};
    return addHere(entry).then(function () { return queued(office.table); }).then(function (entries) {
      var done = document.getElementById("done");      // the hand before: no longer the news
      if (done) done.hidden = true;
      clearEntry(form);
      followQueue(entries);
      showQueue(entries);
    });
  }

  function clearEntry(form) {
    if (form.id === "free-form") {                     // the next free hand starts blank
      Array.prototype.forEach.call(form.elements, function (e) {
        if (/^(p|pay)[0-3]$|^note$|^winner$/.test(e.name || "")) e.value = "";
      });
    }
    TILE_FIELDS.forEach(function (n) { var f = field(form, n); if (f) f.value = ""; });
    Array.prototype.forEach.call(form.elements, function (e) {
      if (!e.name) return;
      if (/^d_/.test(e.name)) {
        if (e.type === "checkbox") { e.checked = false; } else { e.value = ""; }
      } else if (["s_winner", "s_discarder", "s_dready"].indexOf(e.name) >= 0 && e.tagName === "SELECT") {
        e.value = "";
      } else if (e.name === "win_by" && e.tagName === "SELECT") {
        e.value = "self_draw";
      } else if (/^s_(pao|jiagang)\d$/.test(e.name) && (document.getElementById("table-meta") || {dataset: {}}).dataset.carry === "reset") {
        if (e.type === "checkbox") { e.checked = false; } else { e.value = "0"; }
      }
    });
    drawHand(form);
    window.history.replaceState(null, "", window.location.pathname + langTail());
  }

  function csrf() {
    var b = document.querySelector("button[name=csrf_token], input[name=csrf_token]");
    return b ? b.value : null;
  }

  // each entry once, in order: a 303 is recorded (a resend of a recorded one too: its
  // idempotency_key names it); no network stops and waits; any other answer is shown
  // one page sends at a time (the Web Locks API where the browser has it: a second tab
  // leaves it to the first); an answer that does not come is tried again
  function flush() {
    var table = office.table;
    if (!table || office.flushing || !navigator.onLine || document.getElementById("queue-conflict") && !document.getElementById("queue-conflict").hidden) return;
    office.flushing = true;
    window.clearTimeout(office.retry);
    if (navigator.locks && navigator.locks.request) {
      navigator.locks.request("webcalc-queue", {ifAvailable: true}, function (lock) {
        if (!lock) { office.flushing = false; later(); return null; }
        return new Promise(function (resolve) { send(table, resolve); });
      }).then(null, function () { office.flushing = false; });
    } else {
      send(table, function () {});
    }
  }

  function later() {
    window.clearTimeout(office.retry);
    office.retry = window.setTimeout(function () { if (office.pending) flush(); }, RETRY);
  }

  var RETRY = 5000;         // ms before a queue that could not be sent is tried again

  function send(table, finished) {
    var sent = 0;
    var token = csrf();
    function done(failed) {
      office.flushing = false;
      finished();
      if (sent) { window.location.replace(table + (langTail())); return; }
      if (failed) later();
    }
    function step(entries) {
      if (!entries.length) { done(false); return; }
      var entry = entries[0];
      var body = new URLSearchParams(entry.body);
      if (token) body.set("csrf_token", token);
      fetch(entry.url, {method: "POST", body: body, redirect: "manual", cache: "no-store",
                        credentials: "same-origin",
                        headers: {"Content-Type": "application/x-www-form-urlencoded"}})
        .then(function (resp) {
          if (resp.type === "opaqueredirect" || (resp.status >= 300 && resp.status < 400)) {
            sent += 1;
            return unqueue([entry]).then(function () {
              showQueue(entries.slice(1));
              step(entries.slice(1));
            });
          }
          office.flushing = false;
          finished();
          repost(entry, body);             // the server's page, natively: what it says
        }, function (err) { if (window.console) console.warn("queue: not sent", err); done(true); });
    }
    queued(table).then(step, function () { done(true); });
  }

  function langTail() {
    var lang = new URLSearchParams(window.location.search).get("lang");
    return lang ? "?lang=" + lang : "";
  }

  function repost(entry, body) {
    var form = el("form");
    form.method = "post";
    form.action = entry.url;
    form.hidden = true;
    body.forEach(function (v, k) {
      var input = el("input");
      input.type = "hidden";
      input.name = k;
      input.value = v;
      form.appendChild(input);
    });
    document.body.appendChild(form);
    form.submit();
  }

  // the server's answer to the first queued entry (a 409: the table changed meanwhile; a
  // 422: the entry's input): re-apply it as the next hand, or drop it
  function showConflict(entries) {
    var box = document.getElementById("queue-conflict");
    // the entry's 记入: a room's, or a free table's (its next number is in either's action)
    var record = document.getElementById("record") || document.getElementById("free-record");
    if (!box || !record) return;
    var head = entries[0];
    var next = Number(param(record.formAction, "expected_number"));
    var badge = document.getElementById("queue-badge");
    var data = Object.assign({names: document.getElementById("table-meta").dataset.names}, badge.dataset);
    box.querySelector(".conflict-what").textContent = summary(head, data);
    box.querySelector(".conflict-why").textContent = document.getElementById("conflict") ? box.dataset.changed : box.dataset.refused;
    var again = box.querySelector("#queue-reapply");
    again.textContent = box.dataset.reapply.replace("{n}", String(next));
    box.hidden = false;
    again.addEventListener("click", function () {
      box.hidden = true;
      // a new hand now, under a key of its own: the one it had may have recorded another
      // entry (its page the kept copy of one recorded: urlKey), and would be refused again
      head.key = freshKey();
      head.url = withParam(withParam(head.url, "expected_number", String(next)), "idempotency_key", head.key);
      var body = new URLSearchParams(head.body);
      if (body.has("number")) body.set("number", String(next));
      head.body = body.toString();
      requeue([head].concat(renumber(entries.slice(1), next + 1))).then(flush);
    });
    box.querySelector("#queue-drop").addEventListener("click", function () {
      box.hidden = true;
      var rest = renumber(entries.slice(1), next);
      unqueue([head]).then(function () { return requeue(rest); }).then(function () {
        if (rest.length) { flush(); } else { window.location.replace(office.table + langTail()); }
      });
    });
  }

  // the next entry follows the queued ones: its number and a key of its own (``own``, when
  // given: the key the page's URL names)
  function followQueue(entries, own) {
    var last = 0;
    entries.forEach(function (e) { last = Math.max(last, Number(param(e.url, "expected_number")) || 0); });
    // one key for the next entry, in its buttons' actions and in the form (which carries
    // it into the page's URL: the back button comes back to the same entry)
    var key = own || freshKey();
    ["record", "draw", "free-record", "free-record-winner"].forEach(function (id) {
      var b = document.getElementById(id);
      if (!b || !b.formAction) return;
      var n = Math.max(Number(param(b.formAction, "expected_number")) || 0, last + 1);
      b.formAction = withParam(withParam(b.formAction, "expected_number", String(n)), "idempotency_key", key);
      var number = b.form && b.form.elements.number;
      if (number) number.value = String(n);
      var kept = b.form && b.form.elements.idempotency_key;
      if (kept) kept.value = key;
      var title = document.getElementById("entry-title");
      // the title counts hands played: the entry id less the entries that take no place
      if (title && title.dataset.title) title.textContent = title.dataset.title.replace("{n}", String(n - (Number(title.dataset.handOffset) || 0)));
    });
  }

  function freshKey() {
    return Math.random().toString(36).slice(2) + Date.now().toString(36);
  }

  // the entry's key the page's URL names (the back button to an entry, its page the kept
  // copy without a network: the same entry, so 记入 there records nothing new, as online;
  // queued under it already, the same fields are queued once, others kept: sameEntry),
  // else null
  function urlKey() {
    var key = new URLSearchParams(window.location.search).get("idempotency_key");
    return key && /^[A-Za-z0-9_-]{1,64}$/.test(key) ? key : null;
  }

  function startOffline() {
    var meta = document.getElementById("table-meta");
    if (!meta) return;
    var path = meta.dataset.edit || meta.dataset.view;
    var copy = document.documentElement.dataset.offlineCopy;
    if (!copy) heard(path, Date.now());
    var form = document.getElementById("calc-form");
    if (copy) {
      live.copy = new Date(Math.max(Date.parse(copy) || 0, heard(path)));
      live.heard = live.copy;
      live.failures = Math.max(1, live.failures);
      var done = document.getElementById("done");
      if (done) done.hidden = true;
      if (form) restoreState(form);
      if (window.caches) {
        window.caches.open(TABLES_CACHE).then(function (c) { return c.match(window.location.origin + path + "/live"); })
          .then(function (r) { return r ? r.text() : null; })
          .then(function (text) {
            var now = document.getElementById("live-top");
            if (!text || !now) return;
            var doc = new DOMParser().parseFromString(text, "text/html");
            var next = doc.getElementById("live-top");
            if (next && Number(next.dataset.version) > Number(now.dataset.version)) swap(text);
          }).catch(function () { /* the page's own copy, then */ });
      }
      say();
    }
    if (!meta.dataset.edit) return;
    office.table = meta.dataset.edit;
    var kept = keptOutcomes(office.table);
    if (kept && kept.path === office.table) outcomesNow = kept;
    askOutcomes();
    queued(office.table).then(function (entries) {
      showQueue(entries);
      var mine = entries.length && window.location.pathname === office.table + "/hands" &&
        param(window.location.href, "idempotency_key") === entries[0].key;
      if (mine) { showConflict(entries); return; }
      if (copy || !navigator.onLine) followQueue(entries, urlKey());
      if (entries.length && navigator.onLine) flush();
    }).catch(function () { /* no IndexedDB: nothing was queued */ });
  }

  // the server answered again: the queue first (its end loads the table), else a kept copy
  // gives way to the page itself
  function backOnline() {
    if (office.flushing) return;
    var refresh = function () {
      if (live && live.copy) {
        live.copy = null;
        window.location.reload();
      }
    };
    if (!office.table) { refresh(); return; }
    queued(office.table).then(function (entries) {
      if (entries.length) { flush(); } else { refresh(); }
    }, refresh);
  }

  // the screen stays on at the table (the Wake Lock API where the browser has it)
  var wake = null;
  function keepAwake() {
    if (!navigator.wakeLock || document.hidden || wake) return;
    navigator.wakeLock.request("screen").then(function (lock) {
      wake = lock;
      lock.addEventListener("release", function () { wake = null; });
    }, function () { /* refused (battery saver): the phone's own setting */ });
  }

  // "forget this table": its copies and its queued entries go too
  function forgetOffline(t) {
    var paths = [t.view, t.edit].filter(Boolean);
    if (window.caches) {
      window.caches.open(TABLES_CACHE).then(function (cache) {
        return cache.keys().then(function (keys) {
          return Promise.all(keys.filter(function (req) {
            var p = new URL(req.url).pathname;
            return paths.some(function (x) { return p === x || p.indexOf(x + "/") === 0; });
          }).map(function (req) { return cache.delete(req); }));
        });
      }).catch(function () {});
    }
    if (t.edit) queued(t.edit).then(function (entries) {
      return unqueue(entries);
    }).catch(function () {});
  }

  // the CSV's times in the phone's own time zone (the server's default is Asia/Shanghai)
  function csvZone() {
    var a = document.getElementById("export-csv");
    var zone = "";
    try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { zone = ""; }
    if (a && zone && document.getElementById("table-meta") && a.href.indexOf("tz=") < 0) a.href = withParam(a.href, "tz", zone);
  }

  function ready() {
    remember();
    csvZone();
    showMine();
    showSend();
    startLive();
    if (!live && document.getElementById("table-meta")) {
      live = {failures: 0, polls: 0, heard: new Date(), timer: null, busy: true};
    }
    startOffline();
    if (document.getElementById("table-meta")) {
      window.addEventListener("online", backOnline);
      keepAwake();
      document.addEventListener("visibilitychange", keepAwake);
    }
  }

  document.addEventListener("DOMContentLoaded", ready);
  // the entry's inputs changed: the server's answers for them (online), or what the box
  // can say without it (offline)
  document.addEventListener("htmx:after:swap", function () { if (office.table) askOutcomes(); });
  document.addEventListener("change", function (event) {
    var t = event.target;
    if (!office.table || !t.form || t.form.id !== "calc-form") return;
    if (navigator.onLine) { window.setTimeout(askOutcomes, 0); } else { previewEntry(); }
  });
  window.addEventListener("offline", previewEntry);
  document.addEventListener("htmx:after:swap", showSend);      // the panel was swapped in place
})();
