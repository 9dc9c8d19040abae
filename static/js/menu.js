// The site's menu on a phone: the header keeps one row, its links and languages behind a
// "Menu" button that opens and closes them (Escape closes them and gives the button the focus).
// Without scripts, static/css/noscript.css shows them all and hides the button.
(function () {
  "use strict";
  var toggle = document.querySelector(".menu-toggle");
  if (!toggle) return;
  var menu = document.getElementById(toggle.getAttribute("aria-controls"));

  function opened() {
    return toggle.getAttribute("aria-expanded") === "true";
  }

  function show(open) {
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
    menu.classList.toggle("open", open);
  }

  toggle.addEventListener("click", function () {
    show(!opened());
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape" || !opened()) return;
    show(false);
    toggle.focus();
  });
})();
