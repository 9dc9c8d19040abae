// The service worker (sw.js, at the site's root): keeps the static files and the offline page
// and shows push notifications. Pages themselves are never kept.
(function () {
  "use strict";
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js", {scope: "/"}).catch(function () {});
  }
})();
