// Cards move: a card played travels from its player's place to the trick, a finished trick
// goes to the player who took it, a dealt hand arrives. Each move is short (at most 300 ms) and
// never in the way: nothing waits for it, and a moving copy takes no clicks. A player who asks
// for reduced motion sees none. Each run of moves is counted on the body (data-cards-moved).
// In Grabush, a card that lands on a centre pile travels from the place of the player who played
// it, and every pile whose top card changed is lit for a moment (also under reduced motion: the
// light does not move).
(function () {
  "use strict";
  var DURATION = 260;
  var reduce = window.matchMedia("(prefers-reduced-motion: reduce)");
  var before = null;

  function centre(rect) {
    return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
  }

  function place(seat) {
    var element = document.querySelector("#felt .player.at-" + seat);
    return element ? element.getBoundingClientRect() : null;
  }

  function seatOf(element) {
    var found = / at-(\d)/.exec(" " + element.className);
    return found ? found[1] : null;
  }

  function key(element) {
    var card = element.querySelector(".playing-card");
    return seatOf(element) + ":" + (card ? card.getAttribute("aria-label") : "");
  }

  var LIT_MS = 1500;

  // The top card of every Grabush pile (centre and table piles), by where it lies.
  function tops() {
    var found = {};
    document.querySelectorAll("#centre, .gplayer").forEach(function (group) {
      group.querySelectorAll(".pile, .slot").forEach(function (pile, index) {
        var card = pile.querySelector(".playing-card");
        found[group.id + ":" + index] = { pile: pile, label: card ? card.textContent : "" };
      });
    });
    return found;
  }

  // The place of the Grabush player on turn: who makes the move a frame brings.
  function mover() {
    var element = document.querySelector(".gplayer.active");
    return element ? element.getBoundingClientRect() : null;
  }

  function lit(old, from) {
    var now = tops();
    var count = 0;
    var flew = false;
    Object.keys(now).forEach(function (where) {
      var card = now[where].pile.querySelector(".playing-card");
      if (!card || (old[where] && old[where].label === now[where].label)) return;
      card.classList.add("just-moved");
      setTimeout(function () { card.classList.remove("just-moved"); }, LIT_MS);
      count++;
      if (from && where.indexOf("centre:") === 0) {
        fly(card, centre(from), centre(card.getBoundingClientRect()));
        flew = true;
      }
    });
    if (count) {
      document.body.dataset.cardsLit = String(Number(document.body.dataset.cardsLit || 0) + count);
    }
    return flew;
  }

  function snapshot() {
    var trick = {};
    var resting = [];
    document.querySelectorAll("#felt .trick-card").forEach(function (element) {
      if (element.classList.contains("resting")) {
        resting.push({ html: element.innerHTML, rect: element.getBoundingClientRect(), key: key(element) });
      } else {
        trick[key(element)] = true;
      }
    });
    var won = document.querySelector("#felt .trick-card.won");
    return {
      trick: trick,
      resting: resting,
      taker: won ? seatOf(won) : null,
      hand: document.querySelectorAll("#my-area .hand .playing-card").length,
    };
  }

  function counted() {
    document.body.dataset.cardsMoved = String(Number(document.body.dataset.cardsMoved || 0) + 1);
  }

  function animate(element, frames) {
    return element.animate(frames, { duration: DURATION, easing: "ease-out" });
  }

  // From where the card was (its player's place) to where it is now.
  function fly(element, from, to) {
    var shift = "translate(" + (from.x - to.x) + "px, " + (from.y - to.y) + "px) scale(.85)";
    return animate(element, [{ transform: shift }, { transform: "none" }]);
  }

  function played(old) {
    var moved = false;
    document.querySelectorAll("#felt .trick-card:not(.resting)").forEach(function (element) {
      if (old.trick[key(element)]) return;
      var from = place(seatOf(element));
      if (!from) return;
      fly(element, centre(from), centre(element.getBoundingClientRect()));
      moved = true;
    });
    return moved;
  }

  function collected(old) {
    if (!old.resting.length || old.taker === null) return false;
    var still = {};
    document.querySelectorAll("#felt .trick-card.resting").forEach(function (element) {
      still[key(element)] = true;
    });
    if (old.resting.some(function (card) { return still[card.key]; })) return false;
    var to = place(old.taker);
    if (!to) return false;
    var target = centre(to);
    old.resting.forEach(function (card) {
      var copy = document.createElement("div");
      copy.className = "card-in-flight";
      copy.setAttribute("aria-hidden", "true");
      copy.innerHTML = card.html;
      copy.style.left = card.rect.left + "px";
      copy.style.top = card.rect.top + "px";
      document.body.appendChild(copy);
      var from = centre(card.rect);
      var frames = [
        { transform: "none", opacity: 1 },
        { transform: "translate(" + (target.x - from.x) + "px, " + (target.y - from.y) + "px) scale(.5)", opacity: 0 },
      ];
      var gone = function () { copy.remove(); };
      animate(copy, frames).finished.then(gone, gone);
    });
    return true;
  }

  function dealt(old) {
    var cards = document.querySelectorAll("#my-area .hand .playing-card");
    if (cards.length <= old.hand) return false;
    cards.forEach(function (element, index) {
      element.animate(
        [{ transform: "translateY(1.5rem)", opacity: 0 }, { transform: "none", opacity: 1 }],
        { duration: DURATION - 60, delay: Math.min(index * 12, 60), easing: "ease-out", fill: "backwards" }
      );
    });
    return true;
  }

  var piles = null;
  var from = null;

  document.addEventListener("htmx:wsBeforeMessage", function () {
    piles = document.getElementById("centre") ? tops() : null;
    from = piles && !reduce.matches ? mover() : null;
    before = reduce.matches ? null : snapshot();
  });

  document.addEventListener("htmx:wsAfterMessage", function () {
    if (piles && lit(piles, from)) counted();
    piles = null;
    from = null;
    if (!before) return;
    var old = before;
    before = null;
    var moved = collected(old);
    moved = played(old) || moved;
    moved = dealt(old) || moved;
    if (moved) counted();
  });
})();
