// Turn-timer countdowns: every element with data-deadline (epoch milliseconds) shows the
// seconds left. Served as a file so the Content-Security-Policy needs no inline script.
(function () {
  "use strict";
  function tick() {
    var now = Date.now();
    document.querySelectorAll("[data-deadline]").forEach(function (el) {
      var left = Math.max(0, Math.ceil((Number(el.dataset.deadline) - now) / 1000));
      el.textContent = left + " s";
      el.classList.toggle("urgent", left <= 5);
    });
  }
  setInterval(tick, 250);
  document.addEventListener("htmx:wsAfterMessage", tick);
  tick();
})();
