// The table's socket names what the page shows (#page-token) whenever it connects: after a
// server's restart a page that still shows the table as it is gets no new render, only the
// connection line and the chat. Otherwise the socket is the one the htmx ws extension opens.
(function () {
  "use strict";
  htmx.createWebSocket = function (url) {
    var held = document.getElementById("page-token");
    var token = held && held.dataset.token;
    if (token) {
      url += (url.indexOf("?") < 0 ? "?" : "&") + "token=" + encodeURIComponent(token);
    }
    var socket = new WebSocket(url, []);
    socket.binaryType = htmx.config.wsBinaryType;
    return socket;
  };
})();
