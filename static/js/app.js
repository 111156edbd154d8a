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

  // A morph swap updates the `selected` and `checked` attributes, but a control the user
  // has touched keeps showing its own choice: a reset row (the "add a kong" row after the
  // kong was added) would still show the old seat and send it again. After each swap, every
  // select and checkbox of the form shows exactly what the server rendered.
  function sync() {
    document.querySelectorAll("#calc select").forEach(function (select) {
      var chosen = null;
      for (var i = 0; i < select.options.length; i++) {
        if (select.options[i].defaultSelected) { chosen = select.options[i]; }
      }
      chosen = chosen || select.options[0];
      if (chosen && !chosen.selected) { chosen.selected = true; }
    });
    document.querySelectorAll("#calc input[type=checkbox], #calc input[type=radio]").forEach(
      function (input) {
        if (input.checked !== input.defaultChecked) { input.checked = input.defaultChecked; }
      });
  }

  function swapped() {
    ready();
    sync();
  }

  document.addEventListener("DOMContentLoaded", ready);
  // htmx 4 swaps #calc in place (morph): show the button again in the new content
  document.addEventListener("htmx:after:swap", swapped);
  document.addEventListener("htmx:afterSwap", swapped);

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
