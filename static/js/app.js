// webcalc: the little the page needs beyond htmx. No inline script (CSP script-src 'self').
// "Copy link": the URL bar already holds the whole state; this copies it.
(function () {
  "use strict";

  function show(button) {
    button.hidden = false;
  }

  function ready() {
    document.querySelectorAll("[data-copy-link]").forEach(show);
  }

  document.addEventListener("DOMContentLoaded", ready);
  // htmx 4 swaps #calc in place (morph): show the button again in the new content
  document.addEventListener("htmx:after:swap", ready);
  document.addEventListener("htmx:afterSwap", ready);

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-copy-link]");
    if (!button) return;
    var status = button.parentNode.querySelector(".copy-status");
    var url = window.location.href;
    function say(text) {
      if (status) status.textContent = text;
    }
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(url).then(
        function () { say(button.dataset.copied); },
        function () { say(button.dataset.failed); }
      );
    } else {
      say(button.dataset.failed);
    }
  });
})();
