// A notice that needs no answer (an answer to the player's own invitation) closes by its button.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target.closest(".notice-close");
    if (button) button.closest(".notice").remove();
  });
})();
