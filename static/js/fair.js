// Fair deals (games/fair_deals.py): when a player sits down, asks to start a match or presses
// "Play now", their browser adds a random contribution to the next match's seed, and
// remembers it, so that the match record can tell them their contribution is there.
(function () {
  "use strict";
  var KEY = "cardroom:contributions";
  var KEEP = 50;
  var OPS = { sit: true, start: true, rematch: true };

  function remembered() {
    try {
      return JSON.parse(localStorage.getItem(KEY)) || [];
    } catch (error) {
      return [];
    }
  }

  function remember(value) {
    var values = remembered();
    values.push(value);
    try {
      localStorage.setItem(KEY, JSON.stringify(values.slice(-KEEP)));
    } catch (error) {
      // Storage may be full or refused: the contribution still counts.
    }
  }

  function contribution() {
    var bytes = new Uint8Array(32);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) {
      return (b < 16 ? "0" : "") + b.toString(16);
    }).join("");
  }

  document.addEventListener("htmx:wsConfigSend", function (event) {
    var parameters = event.detail.parameters;
    if (!parameters || !OPS[parameters.op] || !window.crypto || !crypto.getRandomValues) return;
    parameters.contribution = contribution();
    remember(parameters.contribution);
  });

  // "Play now": the form brings back the commitment its page showed; add the contribution.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.hasAttribute("data-contribute") || !window.crypto || !crypto.getRandomValues) return;
    var field = form.querySelector("input[name='contribution']");
    field.value = contribution();
    remember(field.value);
  });

  // The match record: say so when one of the contributions came from this browser.
  document.addEventListener("DOMContentLoaded", function () {
    var mine = remembered();
    var note = document.getElementById("my-contribution");
    if (!note) return;
    var found = Array.prototype.some.call(document.querySelectorAll("[data-contribution]"), function (el) {
      return mine.indexOf(el.getAttribute("data-contribution")) >= 0;
    });
    note.hidden = !found;
  });
})();
