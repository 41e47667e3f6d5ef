// Teach mode: the host shows the camera each kind of piece once, sees what it reads live, and answers
// the toss questions the camera and beams disagree on. Plain fetch and JPEGs: any phone, no library.
"use strict";

const $ = (id) => document.getElementById(id);
const t = Companion.t;
let token = null;

const call = (method, path, body) => Companion.requestJson(method, path, body, token);

function say(text, good) {
  $("message").textContent = text;
  $("message").className = good ? "ok" : "error";
}

function show(session) {
  $("lesson").hidden = !session;
  if (!session) return;
  $("progress").textContent = t("{game} · {edition}: step {step} of {steps}",
    { game: session.game, edition: session.edition, step: Math.min(session.step + 1, session.steps), steps: session.steps });
  $("prompt").textContent = session.prompt;
  $("shot").disabled = session.done;
  const check = session.last_check;
  $("check").textContent = check
    ? (check.right ? t("Learned: the camera now reads it right.")
      : t("Learned, but it still reads {reading}: take the shot again.", { reading: JSON.stringify(check.read) }))
    : "";
  if (!session.done) $("preview").src = `/api/teach/preview.jpg?t=${Date.now()}`;
}

async function refreshToss() {
  try {
    const state = await call("GET", "/api/camera");
    const pending = state.pending_toss;
    $("toss").hidden = !pending;
    if (pending) {
      $("toss-text").textContent = t("Toss of seat {seat}: the beams saw {beams}, the camera sees {camera}. What is on the horns?", {
        seat: pending.seat,
        beams: pending.beams ? t("a ring") : t("no ring"),
        camera: pending.camera ? t("a ring") : t("no ring"),
      });
    }
  } catch (error) { /* shown by the next action */ }
}

async function act(path) {
  say(t("One moment: the camera is looking…"), true);
  try { show((await call("POST", path, {})).session); say("", true); } catch (error) { say(error.message); }
}

async function load() {
  const session = await (await fetch("/api/host/session")).json().catch(() => ({}));
  if (!session.host) { say(t("Only the host may teach the camera: sign in with the table PIN first.")); return; }
  token = session.csrf_token;
  const state = await call("GET", "/api/teach");
  for (const game of state.games) $("game").append(new Option(game, game));
  if (!state.camera) say(t("No camera: start the companion with one (companion run --camera ...)."));
  show(state.session);
  refreshToss();
  setInterval(refreshToss, 3000);
}

$("begin").onclick = async () => {
  try {
    const options = JSON.parse($("options").value || "{}");
    const data = await call("POST", "/api/teach/start", { game: $("game").value, edition: $("edition").value, options });
    show(data.session); say("", true);
  } catch (error) { say(error.message); }
};
$("shot").onclick = () => act("/api/teach/shot");
$("skip").onclick = () => act("/api/teach/skip");
$("back").onclick = () => act("/api/teach/back");
$("refresh").onclick = () => { $("preview").src = `/api/teach/preview.jpg?t=${Date.now()}`; };
// The live reading: the next picture is asked for once the last has arrived, so a slow Wi-Fi never
// piles requests up; the words under it once a second.
const LIVE_EVERY_MS = 500;
function refreshLive() {
  if ($("lesson").hidden) { setTimeout(refreshLive, 2000); return; }
  $("live").src = `/api/teach/live.jpg?t=${Date.now()}`;
}
$("live").onload = () => setTimeout(refreshLive, LIVE_EVERY_MS);
$("live").onerror = () => setTimeout(refreshLive, 4 * LIVE_EVERY_MS);
async function refreshLiveText() {
  if (!$("lesson").hidden) {
    try {
      const data = await call("GET", "/api/teach/live");
      const live = data.live;
      const spot = Object.entries(data.spot).map(([item, label]) =>
        t("{item} reads {reading} (lesson: {lesson})", { item, reading: live.read[item] ?? t("nothing"), lesson: label }));
      $("live-text").textContent = live.message || spot.join("; ") || t("Every lesson is done: lay pieces to see them read.");
    } catch (error) { $("live-text").textContent = error.message; }
  }
  setTimeout(refreshLiveText, 1000);
}
refreshLive();
refreshLiveText();
// A frame the camera could not read (a hand over a marker, a passing shadow) must not leave the view
// blank until the host thinks of "Refresh view": the preview is asked for again a little later.
const CANNOT_SEE = t("The camera cannot see the table: are the four corner markers in view?");
const PREVIEW_RETRY_MS = 2000;
$("preview").onerror = () => {
  say(CANNOT_SEE);
  setTimeout(() => { if (!$("lesson").hidden) $("preview").src = `/api/teach/preview.jpg?t=${Date.now()}`; }, PREVIEW_RETRY_MS);
};
$("preview").onload = () => { if ($("message").textContent === CANNOT_SEE) say("", true); };
for (const button of document.querySelectorAll("#toss button")) {
  button.onclick = async () => {
    try { await call("POST", "/api/camera/toss", { success: button.dataset.success === "true" }); say(t("Verdict taken."), true); }
    catch (error) { say(error.message); }
    refreshToss();
  };
}
load().catch((error) => say(error.message));
