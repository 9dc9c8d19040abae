// Times the server writes in UTC (<time data-local datetime="…">) shown in the reader's own
// time zone, in the page's language; and the reader's offset sent with a form that takes a
// time (<input name="utc_offset">), so that the time they typed is theirs.
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    var language = document.documentElement.lang || undefined;
    var format = new Intl.DateTimeFormat(language, { dateStyle: "long", timeStyle: "short" });
    Array.prototype.forEach.call(document.querySelectorAll("time[data-local]"), function (el) {
      var when = new Date(el.getAttribute("datetime"));
      if (!isNaN(when)) el.textContent = format.format(when);
    });
    Array.prototype.forEach.call(document.querySelectorAll("input[name='utc_offset']"), function (el) {
      el.value = String(new Date().getTimezoneOffset());
    });
  });
})();
