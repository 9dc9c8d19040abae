// The table's connection line: when the live socket drops, say so. The htmx ws extension
// reconnects on its own after an abnormal close or a server restart (codes 1006, 1011, 1012,
// 1013), and the server's first frame then says "Connected"; after any other close (the
// server refused or ended the connection: banned, flooding, no such table) it does not, and
// the line says to reload. The words come from the element's data attributes, translated by
// the server.
(function () {
  "use strict";
  var RECONNECTS = [1006, 1011, 1012, 1013];
  document.addEventListener("htmx:wsClose", function (event) {
    var line = document.getElementById("connection");
    var close = event.detail && event.detail.event;
    if (!line || !close) {
      return;
    }
    var words = RECONNECTS.indexOf(close.code) >= 0 ? line.dataset.lost : line.dataset.closed;
    if (words) {
      line.textContent = words;
      line.classList.remove("connected");
      line.classList.add("lost");
    }
  });
})();
