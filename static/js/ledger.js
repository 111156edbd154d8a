// webcalc: the table ledger's JavaScript. No inline script (CSP script-src 'self'); every
// string shown comes from the page (data-* attributes rendered in the page's language).
// Without JavaScript every form here still works: this file only
//   1. lets 记入 and 荒庄 post the room's form natively (htmx would send it as its GET),
//   2. follows the table with ONE poll (totals and hand list swapped together),
//   3. keeps this phone's list of tables (我的牌桌) in localStorage, and shows it.
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
      return;
    }
    event.preventDefault();
    if (button.id) {
      pressWhenSettled(button.id);
    }
  }, true);

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
    el.textContent = (text || "").replace("{time}", clock(live.heard));
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
          if (swap(text) && etag) live.etag = etag;
        });
      })
      .then(function () {
        live.failures = 0;
        live.heard = new Date();
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

  function ready() {
    remember();
    showMine();
    showSend();
    startLive();
  }

  document.addEventListener("DOMContentLoaded", ready);
  document.addEventListener("htmx:after:swap", showSend);      // the panel was swapped in place
})();
