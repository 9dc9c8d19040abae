// The table page between frames: a frame swaps parts of the page by id, which drops the focus
// of a keyboard player on the body. Put it back where it was (the same button, when it is still
// there), else on the first thing to play when it is the player's turn again; and when a
// Grabush pick lights its targets, bring them into view (a phone shows only part of the board).
(function () {
  "use strict";
  var PLAYABLE = "#my-area .playable, #my-area .call-button, #my-area .next-deal, #my-area button[value='end'], #board .source, #board .target";
  var kept = null;

  function describe(element) {
    if (!element || element === document.body || !element.closest(".table-live")) return null;
    return {
      name: element.getAttribute("name"),
      value: element.getAttribute("value"),
      id: element.id,
      pick: element.getAttribute("data-pick"),
    };
  }

  function find(where) {
    if (where.id) return document.getElementById(where.id);
    // A Grabush source sends an empty value once picked (to drop it again): it is the same card.
    if (where.pick) return document.querySelector("[data-pick='" + where.pick + "']");
    if (!where.name) return null;
    var candidates = document.querySelectorAll("[name='" + where.name + "']");
    for (var i = 0; i < candidates.length; i++) {
      if (candidates[i].getAttribute("value") === where.value && !candidates[i].disabled) return candidates[i];
    }
    return null;
  }

  // A control that can take the focus: not disabled, and shown.
  function focusable(element) {
    return !!element && !element.disabled && element.getClientRects().length > 0;
  }

  document.addEventListener("htmx:wsBeforeMessage", function () {
    kept = describe(document.activeElement) || kept;
  });

  document.addEventListener("htmx:wsAfterMessage", function () {
    var target = document.querySelector("#board .target");
    if (target && document.querySelector("#board .source.selected")) {
      target.scrollIntoView({ block: "nearest", behavior: "smooth" });
    }
    if (!kept || (document.activeElement && document.activeElement !== document.body)) return;
    var again = find(kept);
    if (!focusable(again)) again = null;
    if (!again && document.querySelector(".your-turn, .next-deal")) {
      again = Array.prototype.find.call(document.querySelectorAll(PLAYABLE), focusable) || null;
    }
    if (again) {
      again.focus({ preventScroll: false });
      if (document.activeElement === again) kept = describe(again);
    }
  });
})();

// A note said once (data-once): shown on the first page that has it, for as long as that page
// stays open, and hidden on later pages.
(function () {
  "use strict";
  var shownHere = {};

  function sayOnce() {
    var notes = document.querySelectorAll("[data-once]");
    for (var i = 0; i < notes.length; i++) {
      var key = "once:" + notes[i].getAttribute("data-once");
      if (shownHere[key]) continue;
      try {
        if (window.localStorage.getItem(key)) {
          notes[i].hidden = true;
          continue;
        }
        window.localStorage.setItem(key, "1");
      } catch (error) {
        continue; // no storage: the note shows each time
      }
      shownHere[key] = true;
    }
  }

  document.addEventListener("DOMContentLoaded", sayOnce);
  document.addEventListener("htmx:wsAfterMessage", sayOnce);
})();
