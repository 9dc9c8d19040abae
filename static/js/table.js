// The table page between frames: a frame swaps parts of the page by id, which drops the focus
// of a keyboard player on the body. Put it back where it was (the same button, when it is still
// there), else on the first thing to play when it is the player's turn again; and when a
// Grabush pick lights its targets, bring them into view (a phone shows only part of the board).
// Bringing the focus into view never scrolls what the player reads first out of it: a deal's
// result, the others' latest turns, the stocks, the centre, the trick. And when the match
// starts, the invite link and sound fold away, so that the board starts near the top.
(function () {
  "use strict";
  var PLAYABLE = "#my-area .playable, #my-area .call-button, #my-area .next-deal, #my-area button[value='end'], #board .source, #board .target";
  // What the player reads before acting: shown with the focus when it lies above it. A deal's
  // result is shown whole with its "Next deal".
  var READ = ".gplayers.others, #stocks, #centre, #felt";
  var WHOLE = "#my-area .deal-end";
  var MARGIN = 8;
  var kept = null;
  var menu = document.querySelector(".table-menu");
  var board = document.getElementById("board");
  var started = !!(board && board.children.length);
  var shown = null;

  // Scroll as little as brings the focused element into view with what is read before it;
  // when both do not fit, what is read wins. Within a turn only a focus out of view moves the
  // page (the player may have scrolled on purpose); a new turn or a deal's end shows both, and
  // the player's hand.
  function reveal(element, fresh) {
    var box = element.getBoundingClientRect();
    if (!fresh && box.top >= 0 && box.bottom <= window.innerHeight) return;
    var top = box.top;
    var bottom = box.bottom;
    var mine = document.getElementById("my-area");
    if (fresh && mine && mine.offsetHeight) bottom = Math.max(bottom, mine.getBoundingClientRect().bottom);
    var around = element.closest(WHOLE);
    if (around) {
      var whole = around.getBoundingClientRect();
      top = whole.top;
      bottom = Math.max(bottom, whole.bottom);
    } else {
      document.querySelectorAll(READ).forEach(function (part) {
        var rect = part.getBoundingClientRect();
        if (rect.height && rect.top < top) top = rect.top;
      });
    }
    var shift = 0;
    if (bottom > window.innerHeight - MARGIN) shift = bottom - window.innerHeight + MARGIN;
    if (top - shift < MARGIN) shift = top - MARGIN;
    if (shift) window.scrollBy(0, shift);
  }

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

  // Which moment the page shows: a turn of the player's (by the version at which it began,
  // marked on #play-version), a deal's end, or null.
  function moment() {
    if (document.querySelector("#my-area .deal-end")) return "deal-end";
    if (!document.querySelector("#table-status .your-turn")) return null;
    var version = document.getElementById("play-version");
    return "turn:" + (version ? version.dataset.turnBegan || "" : "");
  }

  // A control that can take the focus: not disabled, and shown.
  function focusable(element) {
    return !!element && !element.disabled && element.getClientRects().length > 0;
  }

  document.addEventListener("htmx:wsBeforeMessage", function () {
    kept = describe(document.activeElement) || kept;
  });

  document.addEventListener("htmx:wsAfterMessage", function () {
    var now = moment();
    var fresh = now !== null && now !== "turn:" && now !== shown;
    if (now !== "turn:") shown = now; // "": the player's own move went on with the turn
    board = document.getElementById("board");
    if (!started && board && board.children.length) {
      started = true;
      if (menu) menu.open = false;
    }
    var target = document.querySelector("#board .target");
    if (target && document.querySelector("#board .source.selected")) {
      reveal(target, false);
    }
    if (!kept || (document.activeElement && document.activeElement !== document.body)) return;
    var again = find(kept);
    if (!focusable(again)) again = null;
    if (!again && document.querySelector(".your-turn, .next-deal")) {
      again = Array.prototype.find.call(document.querySelectorAll(PLAYABLE), focusable) || null;
    }
    if (again) {
      again.focus({ preventScroll: true });
      if (document.activeElement === again) {
        kept = describe(again);
        reveal(again, fresh);
      }
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
