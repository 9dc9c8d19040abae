// Notifications on this device (the settings page): subscribe through the Push API with the
// site's public key and give the server the subscription, or take it back.
(function () {
  "use strict";

  function keyBytes(base64url) {
    var padded = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(padded);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  function csrfToken() {
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["x-csrftoken"]; } catch (error) { return ""; }
  }

  function post(url, data) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRFToken": csrfToken()},
      body: JSON.stringify(data)
    }).then(function (response) {
      if (!response.ok) throw new Error("refused");
      return response;
    });
  }

  function start(box) {
    var state = box.querySelector(".push-state");
    var on = box.querySelector("#push-on");
    var off = box.querySelector("#push-off");

    function show(name) {
      state.textContent = state.dataset[name];
      box.dataset.state = name;
      on.hidden = !(name === "off" || name === "failed");
      off.hidden = name !== "on";
    }

    if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
      show("unsupported");
      return;
    }
    var ready = navigator.serviceWorker.ready;
    ready.then(function (registration) {
      return registration.pushManager.getSubscription();
    }).then(function (subscription) {
      if (Notification.permission === "denied") {
        // Blocked in the browser: the server forgets this device too.
        if (subscription) post(box.dataset.unsubscribe, {endpoint: subscription.endpoint}).catch(function () {});
        show("blocked");
      } else {
        show(subscription ? "on" : "off");
      }
    });

    on.addEventListener("click", function () {
      on.disabled = true;
      Notification.requestPermission().then(function (permission) {
        if (permission !== "granted") throw new Error(permission);
        return ready;
      }).then(function (registration) {
        return registration.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: keyBytes(box.dataset.key)
        });
      }).then(function (subscription) {
        return post(box.dataset.subscribe, subscription.toJSON());
      }).then(function () {
        show("on");
      }).catch(function () {
        show(Notification.permission === "denied" ? "blocked" : "failed");
      }).finally(function () {
        on.disabled = false;
      });
    });

    off.addEventListener("click", function () {
      off.disabled = true;
      ready.then(function (registration) {
        return registration.pushManager.getSubscription();
      }).then(function (subscription) {
        if (!subscription) return null;
        var endpoint = subscription.endpoint;
        return subscription.unsubscribe().then(function () {
          return post(box.dataset.unsubscribe, {endpoint: endpoint});
        });
      }).then(function () {
        show("off");
      }).finally(function () {
        off.disabled = false;
      });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var box = document.getElementById("push-device");
    if (box) start(box);
  });
})();
