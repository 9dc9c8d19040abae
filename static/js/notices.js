// Notices: one that needs no answer (an answer to the player's own invitation) closes by its
// button; the notice socket marks itself open (data-connected), which is also when the player
// shows online to friends.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target.closest(".notice-close");
    if (button) button.closest(".notice").remove();
  });
  document.addEventListener("htmx:wsOpen", function (event) {
    var live = event.target.closest(".notices-live");
    if (live) live.dataset.connected = "true";
  });
  document.addEventListener("htmx:wsClose", function (event) {
    var live = event.target.closest(".notices-live");
    if (live) delete live.dataset.connected;
  });
})();
