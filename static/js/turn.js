// Turn signals on the table page: while it is the player's turn (the status shows
// .your-turn) the tab's title starts with "(Your turn)", and, if the player switched the
// sound on (remembered in localStorage, off by default), a short tone plays when a turn
// begins. The tone is made with the Web Audio API: no file to download. Opening the page on
// one's turn makes no sound: the player is looking at it already.
(function () {
  "use strict";
  var KEY = "cardroom.turnSound";
  var toggle = document.getElementById("turn-sound");
  if (!toggle) return;
  var prefix = toggle.dataset.title + " ";
  var audio = null;

  function stored() {
    try {
      return window.localStorage.getItem(KEY) === "on";
    } catch (error) {
      return false; // storage blocked: the default, off
    }
  }

  function store(on) {
    try {
      window.localStorage.setItem(KEY, on ? "on" : "off");
    } catch (error) {
      // storage blocked: the choice lasts for this page only
    }
  }

  function context() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    if (!audio) audio = new Context();
    // Browsers start audio only after a gesture; resume() then succeeds, before it waits.
    if (audio.state === "suspended") audio.resume().catch(function () {});
    return audio;
  }

  function tone() {
    var ctx = context();
    if (!ctx) return;
    var oscillator = ctx.createOscillator();
    var gain = ctx.createGain();
    var now = ctx.currentTime;
    oscillator.type = "sine";
    oscillator.frequency.setValueAtTime(880, now);
    oscillator.frequency.setValueAtTime(660, now + 0.12);
    gain.gain.setValueAtTime(0.0001, now);
    gain.gain.exponentialRampToValueAtTime(0.15, now + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.3);
    oscillator.connect(gain);
    gain.connect(ctx.destination);
    oscillator.start(now);
    oscillator.stop(now + 0.32);
  }

  // The version at which the player's turn began, as the server marks it on #play-version
  // ("" when the player's own move continued the turn); null when it is not their turn.
  // Frames may skip states (the computers can move before a frame is made), so a new turn
  // shows as a new mark, not only as a change of seat.
  function turnBegan() {
    if (document.querySelector("#table-status .your-turn") === null) return null;
    var version = document.getElementById("play-version");
    return version === null ? "" : version.dataset.turnBegan || "";
  }

  var base = document.title.indexOf(prefix) === 0 ? document.title.slice(prefix.length) : document.title;
  var began = turnBegan();

  function update() {
    var now = turnBegan();
    var mine = now !== null;
    document.title = mine ? prefix + base : base;
    var fresh = mine && (began === null || (now !== "" && now !== began));
    if (fresh && toggle.checked) tone();
    began = now;
  }

  toggle.checked = stored();
  toggle.closest(".turn-sound").hidden = false;
  toggle.addEventListener("change", function () {
    store(toggle.checked);
    if (toggle.checked) tone(); // a sample, and the gesture that lets later tones play
  });
  // After a reload with the sound on, the first click or key press unlocks the audio.
  ["pointerdown", "keydown"].forEach(function (type) {
    document.addEventListener(type, function () {
      if (toggle.checked) context();
    }, { once: true });
  });
  document.addEventListener("htmx:wsAfterMessage", update);
  update();
})();
