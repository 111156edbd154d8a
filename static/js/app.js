// webcalc: the little the page needs beyond htmx. No inline script (CSP script-src 'self').
// "Copy link": the URL bar already holds the whole state; this copies it. The colours switch
// (static/js/theme.js applies the choice before the first paint), the service worker
// (static/sw.js, served at <script root>/sw.js), the "no network" line and the share
// picture's button.
(function () {
  "use strict";

  var THEME_KEY = "webcalc-theme";
  // the app's script root ("" at /, "/calc" under SCRIPT_NAME=/calc): this file is served at
  // <root>/static/js/app.<hash>.js (url_for), so its own URL says where the app is mounted
  var ROOT = (function () {
    var src = document.currentScript && document.currentScript.src;
    var path = src ? new URL(src, window.location.href).pathname : "";
    var at = path.lastIndexOf("/static/");
    return at > 0 ? path.slice(0, at) : "";
  })();

  function show(button) {
    button.hidden = false;
  }

  function ready() {
    document.querySelectorAll("[data-copy-link]").forEach(show);
    // the copy fallback's field: shown by copyFailed only (without JavaScript, always)
    document.querySelectorAll("[data-copy-fallback]").forEach(function (el) {
      if (!el.dataset.shown) el.hidden = true;
    });
    if (canShareFiles()) document.querySelectorAll("[data-share-card]").forEach(show);
  }

  // --- 分享图片 (templates/_share_card.html): the phone's share sheet, where the browser can
  // share files (the Web Share API, feature-detected); elsewhere (WeChat) the picture is
  // long-pressed. The picture is fetched when its fold opens, so that a tap shares at once
  // (a share must follow the tap without waiting on the network).
  function canShareFiles() {
    try {
      return !!(navigator.share && navigator.canShare && window.File &&
        navigator.canShare({ files: [new File([""], "x.png", { type: "image/png" })] }));
    } catch (e) { return false; }
  }

  function cardFile(button) {
    if (!button.cardFile) {
      button.cardFile = fetch(button.dataset.shareCard, { credentials: "same-origin" })
        .then(function (r) {
          if (!r.ok) throw new Error(String(r.status));
          return r.blob();
        })
        .then(function (blob) {
          var file = new File([blob], button.dataset.file || "webcalc.png", { type: "image/png" });
          button.cardReady = file;
          return file;
        });
      button.cardFile.catch(function () { button.cardFile = null; });
    }
    return button.cardFile;
  }

  document.addEventListener("toggle", function (event) {
    var fold = event.target;
    if (!fold.open || !fold.classList || !fold.classList.contains("share-card")) return;
    var button = fold.querySelector("[data-share-card]");
    if (button && !button.hidden) cardFile(button);
  }, true);

  function share(button) {
    var status = button.parentNode.querySelector(".share-status");
    function failed(err) {
      if (err && err.name === "AbortError") return;      // the sheet was closed: fine
      if (status) status.textContent = button.dataset.failed;
    }
    if (status) status.textContent = "";
    var send = function (file) { return navigator.share({ files: [file] }); };
    try {
      if (button.cardReady) { send(button.cardReady).catch(failed); return; }
      cardFile(button).then(send).catch(failed);
    } catch (err) { failed(err); }
  }

  // --- colours: "auto" (the system's), "light" or "dark", kept in this phone's storage ---
  function storedTheme() {
    try {
      var t = window.localStorage.getItem(THEME_KEY);
      return t === "light" || t === "dark" ? t : "auto";
    } catch (e) { return "auto"; }
  }

  function applyTheme(theme) {
    var root = document.documentElement;
    if (theme === "auto") { root.removeAttribute("data-theme"); } else { root.setAttribute("data-theme", theme); }
    // the browser's bar: each colour under its own media query, or the chosen one in both
    var metas = document.querySelectorAll("meta[name=theme-color]");
    var colors = {};
    metas.forEach(function (meta) {
      if (!meta.dataset.color) { meta.dataset.color = meta.content; }
      colors[meta.media.indexOf("dark") >= 0 ? "dark" : "light"] = meta.dataset.color;
    });
    metas.forEach(function (meta) {
      var own = meta.media.indexOf("dark") >= 0 ? "dark" : "light";
      meta.content = colors[theme === "auto" ? own : theme] || meta.dataset.color;
    });
  }

  function themeSwitch() {
    var select = document.querySelector("[data-theme-switch]");
    if (!select) return;
    select.value = storedTheme();
    select.closest(".theme-switch").hidden = false;
    select.addEventListener("change", function () {
      try {
        if (select.value === "auto") { window.localStorage.removeItem(THEME_KEY); }
        else { window.localStorage.setItem(THEME_KEY, select.value); }
      } catch (e) { /* not kept: this page only */ }
      applyTheme(select.value);
    });
    applyTheme(select.value);
  }

  // --- the network ---
  function netStatus(offline) {
    var line = document.getElementById("net-status");
    if (!line) return;
    line.textContent = offline ? line.dataset.offline : "";
    line.classList.toggle("net-off", offline);
  }

  window.addEventListener("offline", function () { netStatus(true); });
  window.addEventListener("online", function () { netStatus(false); });
  // a tap or a change whose request never reached the server: the page stays as it is
  document.addEventListener("htmx:error", function () {
    if (!navigator.onLine) { netStatus(true); return; }
    fetch(ROOT + "/healthz", { cache: "no-store" }).then(
      function () { netStatus(false); }, function () { netStatus(true); });
  });

  if ("serviceWorker" in navigator && window.isSecureContext) {
    window.addEventListener("load", function () {
      // its scope: the app's pages (ROOT + "/"), the most a worker at ROOT + "/sw.js" may have
      navigator.serviceWorker.register(ROOT + "/sw.js", { scope: ROOT + "/" })
        .catch(function () { /* no offline copy */ });
    });
  }

  // A morph swap updates the `selected` and `checked` attributes, but a control the user
  // has touched keeps showing its own choice: a reset row (the "add a kong" row after the
  // kong was added) would still show the old seat and send it again. After each swap, every
  // select and checkbox of the form shows exactly what the server rendered (the calculator's
  // #calc, and the review's #review, whose next-tap mode follows the turns).
  function sync() {
    document.querySelectorAll("#calc select, #review select").forEach(function (select) {
      var chosen = null;
      for (var i = 0; i < select.options.length; i++) {
        if (select.options[i].defaultSelected) { chosen = select.options[i]; }
      }
      chosen = chosen || select.options[0];
      if (chosen && !chosen.selected) { chosen.selected = true; }
    });
    document.querySelectorAll(
      "#calc input[type=checkbox], #calc input[type=radio], #review input[type=checkbox], " +
      "#review input[type=radio]").forEach(
      function (input) {
        if (input.checked !== input.defaultChecked) { input.checked = input.defaultChecked; }
      });
  }

  // A fold marked data-keep-open (the table's 输入手牌 and 杠) that the user opened stays
  // open through a swap: the server opens it when tiles are wanted, and only the user closes
  // it (the morph would take away the `open` the server did not render).
  document.addEventListener("htmx:before:morph:attr", function (event) {
    var el = event.target;
    if (event.detail && event.detail.attrName === "open" && event.detail.newValue === null &&
        el && el.hasAttribute && el.hasAttribute("data-keep-open")) {
      event.preventDefault();
    }
  });

  function swapped() {
    ready();
    sync();
  }

  document.addEventListener("DOMContentLoaded", function () {
    ready();
    themeSwitch();
    if (!navigator.onLine) { netStatus(true); }
  });
  // htmx 4 swaps #calc (and #review) in place (morph): show the button again in the new content
  document.addEventListener("htmx:after:swap", swapped);
  document.addEventListener("htmx:afterSwap", swapped);

  // --- "Copy link" (and the export page's "Copy the text"): the clipboard where the browser
  // has it and allows it; else (WeChat, an old browser, a refusal) the text is shown
  // selected, to be long-pressed: the link in its read-only field, the text itself.
  function copy(button) {
    var status = button.parentNode.querySelector(".copy-status");
    var from = button.dataset.copyFrom ? document.querySelector(button.dataset.copyFrom) : null;
    var text = from ? (from.value !== undefined ? from.value : from.textContent) : window.location.href;
    function say(words) {
      if (status) status.textContent = words;
    }
    function failed() {
      var box = button.parentNode.querySelector("[data-copy-fallback]");
      say(box ? "" : button.dataset.failed);       // the field's own line says 长按复制
      if (box) {
        box.hidden = false;
        box.dataset.shown = "1";
        var field = box.querySelector("input, textarea");
        field.value = text;
        field.focus();
        field.select();
        field.setSelectionRange(0, text.length);
      } else if (from) {
        var range = document.createRange();
        range.selectNodeContents(from);
        var sel = window.getSelection();
        sel.removeAllRanges();
        sel.addRange(range);
      }
    }
    var clip = navigator.clipboard;
    if (!clip || !clip.writeText) { failed(); return; }
    try {
      clip.writeText(text).then(function () { say(button.dataset.copied); }, failed);
    } catch (e) { failed(); }
  }

  document.addEventListener("click", function (event) {
    var sharing = event.target.closest && event.target.closest("[data-share-card]");
    if (sharing) { share(sharing); return; }
    var button = event.target.closest && event.target.closest("[data-copy-link]");
    if (!button) return;
    copy(button);
  });
})();
