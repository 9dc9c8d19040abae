// "Copy invite link": copies the table's address and says so in the button's status line.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy]");
    if (!button) return;
    var field = document.getElementById(button.dataset.copy);
    var status = document.getElementById(button.dataset.copyStatus);
    function done(ok) {
      status.textContent = ok ? button.dataset.copied : button.dataset.failed;
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(function () { done(true); }, function () {
        field.select();
        done(document.execCommand("copy"));
      });
    } else {
      field.select();
      done(document.execCommand("copy"));
    }
  });
})();
