// Before the first paint (loaded in <head>, not deferred): the colours chosen on this phone.
// localStorage "webcalc-theme" is "light" or "dark"; unset, the system's setting decides
// (prefers-color-scheme in app.css), as it does without JavaScript. No cookie: pages stay
// the same for everyone, so shared caches may keep them (docs/decisions.md).
(function () {
  "use strict";
  try {
    var theme = window.localStorage.getItem("webcalc-theme");
    if (theme === "light" || theme === "dark") {
      document.documentElement.setAttribute("data-theme", theme);
    }
  } catch (e) { /* storage blocked: the system's setting */ }
})();
