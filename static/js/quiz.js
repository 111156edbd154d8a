// The daily 何切 page: the learner's record on this phone only (localStorage
// "webcalc.quiz.v1": {"variant|YYYY-MM-DD": 1 or 0}, the first answer of each day counted),
// and the streak (days in a row, up to the problem's day, answered right) and accuracy.
(function () {
  "use strict";
  var KEY = "webcalc.quiz.v1";

  function load() {
    try { return JSON.parse(window.localStorage.getItem(KEY) || "{}") || {}; } catch (e) { return {}; }
  }

  function streak(record, variant, iso) {
    var day = new Date(iso + "T00:00:00Z"), n = 0;
    for (;;) {
      var k = variant + "|" + day.toISOString().slice(0, 10);
      if (record[k] !== 1) return n;
      n += 1;
      day.setUTCDate(day.getUTCDate() - 1);
    }
  }

  function show() {
    var answer = document.querySelector("[data-quiz-key]");
    var out = document.getElementById("quiz-stats");
    if (!answer || !out) return;
    var key = answer.dataset.quizKey, record = load();
    if (!(key in record)) {                   // the first answer of the day is the one counted
      record[key] = answer.dataset.quizRight === "1" ? 1 : 0;
      try { window.localStorage.setItem(KEY, JSON.stringify(record)); } catch (e) { /* private mode */ }
    }
    var parts = key.split("|"), variant = parts[0], mine = 0, right = 0;
    Object.keys(record).forEach(function (k) {
      if (k.split("|")[0] === variant) { mine += 1; right += record[k]; }
    });
    out.textContent = out.dataset.text.replace("{streak}", String(streak(record, variant, parts[1])))
      .replace("{right}", String(right)).replace("{n}", String(mine));
    out.hidden = false;
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", show);
  else show();
})();
