// Turn-timer countdowns: every element with data-deadline (epoch milliseconds) shows the
// seconds left, in its .countdown child when it has one (data-format: "%(seconds)s s"), and
// the share of data-duration (seconds) left as the --left custom property (1 to 0) that its
// bar or ring is drawn from. Served as a file so the Content-Security-Policy needs no inline
// script (a custom property set from a script is no inline style).
(function () {
  "use strict";
  function tick() {
    var now = Date.now();
    document.querySelectorAll("[data-deadline]").forEach(function (el) {
      var ms = Math.max(0, Number(el.dataset.deadline) - now);
      var left = Math.ceil(ms / 1000);
      var text = el.querySelector(".countdown") || el;
      text.textContent = (el.dataset.format || "%(seconds)s s").replace("%(seconds)s", left);
      var duration = Number(el.dataset.duration) * 1000;
      if (duration > 0) el.style.setProperty("--left", Math.min(1, ms / duration).toFixed(3));
      el.classList.toggle("urgent", left <= 5);
    });
  }
  setInterval(tick, 250);
  document.addEventListener("htmx:wsAfterMessage", tick);
  tick();
})();
