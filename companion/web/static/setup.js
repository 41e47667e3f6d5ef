// The setup page: the camera's picture with the overlay, refreshed a few times a second, and the
// markers, light and messages once a second. Plain JPEGs and fetch: any phone, no library.
"use strict";

const $ = (id) => document.getElementById(id);
const t = Companion.t;
const PICTURE_EVERY_MS = 300;
const REPORT_EVERY_MS = 1000;
let token = null;

function query() {
  const game = $("game").value;
  const options = $("options").value.trim();
  const params = new URLSearchParams();
  if (game) params.set("game", game);
  if (options) params.set("options", options);
  return params.toString();
}

function say(text, good) {
  $("message").textContent = text;
  $("message").className = good ? "ok" : "error";
}

const call = (method, path, body) => Companion.requestJson(method, path, body, token);

function showReport(state) {
  const report = state.report;
  const markers = $("markers");
  markers.textContent = "";
  $("messages").textContent = "";
  if (!state.camera) { say(t("No camera: start the companion with one (companion run --camera ...).")); return; }
  if (!report) { say(t("The camera has given no picture yet.")); return; }
  for (const marker of report.markers) {
    const span = document.createElement("span");
    span.className = marker.found ? "found" : "missing";
    span.textContent = `${marker.found ? "✓" : "✗"} ${marker.name}`;
    markers.append(span);
  }
  for (const text of report.messages) {
    const item = document.createElement("li");
    item.textContent = text;
    $("messages").append(item);
  }
  $("all-well").hidden = !report.ok;
  const light = report.light;
  $("light").textContent = t("Light: markers' white {white} of 255, contrast {contrast}, glare {glare}% of the play area.",
    { white: light.paper_white, contrast: light.contrast, glare: (100 * light.glare_share).toFixed(1) })
    + (report.mm_per_px === null ? ""
      : ` ${t("Detail: {mm} mm of table per camera pixel where coarsest.", { mm: report.mm_per_px })}`);
  $("empty").disabled = !state.can_take_empty;
  $("empty").title = state.can_take_empty ? "" : t("the companion's camera watcher cannot learn the empty table");
}

async function refreshReport() {
  try {
    const state = await call("GET", `/api/setup?${query()}`);
    if (!$("game").options.length) {
      for (const game of state.games) $("game").append(new Option(game, game));
      $("game").value = state.game;
      if (!$("options").value && Object.keys(state.options).length) $("options").value = JSON.stringify(state.options);
    }
    showReport(state);
  } catch (error) { say(error.message); }
  setTimeout(refreshReport, REPORT_EVERY_MS);
}

// The next picture is asked for only once the last has arrived (or failed): a slow Wi-Fi never piles up requests.
function refreshPicture() {
  $("view").src = `/api/setup/view.jpg?${query()}&t=${Date.now()}`;
}
$("view").onload = () => setTimeout(refreshPicture, PICTURE_EVERY_MS);
$("view").onerror = () => setTimeout(refreshPicture, 3 * PICTURE_EVERY_MS);

$("empty").onclick = async () => {
  say(t("One moment: the camera is looking at the empty table…"), true);
  try {
    let options = {};
    if ($("options").value.trim()) options = JSON.parse($("options").value);
    await call("POST", "/api/setup/empty", { game: $("game").value, options });
    say(t("Taken: the companion now knows the empty table."), true);
  } catch (error) { say(error.message); }
};

async function load() {
  const session = await (await fetch("/api/host/session")).json().catch(() => ({}));
  if (!session.host) { say(t("Only the host may set the camera up: sign in with the table PIN first.")); return; }
  token = session.csrf_token;
  await refreshReport();
  refreshPicture();
}
load().catch((error) => say(error.message));
