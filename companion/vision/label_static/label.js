// The label page: one frame at a time, the layout drawn over it, a choice per item, saved to the server.
"use strict";

const state = { summary: null, n: 0, view: null };
const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";

async function api(path, body) {
  const options = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  };
  const response = await fetch(path, options);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || `${response.status} ${response.statusText}`);
  return data;
}

function say(text, kind) {
  const status = $("status");
  status.textContent = text;
  status.className = kind || "";
}

function drawRegions(view) {
  const overlay = $("overlay");
  const { width, height } = state.summary.frame_size;
  overlay.setAttribute("viewBox", `0 0 ${width} ${height}`);
  overlay.replaceChildren();
  if (!view.regions) return;
  for (const [item, quad] of Object.entries(view.regions)) {
    const polygon = document.createElementNS(SVG, "polygon");
    polygon.setAttribute("points", quad.map((p) => p.join(",")).join(" "));
    polygon.dataset.item = item;
    polygon.addEventListener("click", () => $(`item-${item}`)?.focus());
    const title = document.createElementNS(SVG, "title");
    title.textContent = item;
    polygon.append(title);
    const text = document.createElementNS(SVG, "text");
    const cx = quad.reduce((s, p) => s + p[0], 0) / quad.length;
    const cy = quad.reduce((s, p) => s + p[1], 0) / quad.length;
    text.setAttribute("x", cx.toFixed(1));
    text.setAttribute("y", cy.toFixed(1));
    text.setAttribute("text-anchor", "middle");
    text.dataset.item = item;
    overlay.append(polygon, text);
  }
}

function markChanges() {
  const reading = (state.view && state.view.reading) || {};
  for (const select of document.querySelectorAll("#items select")) {
    const item = select.dataset.item;
    const changed = reading[item] !== undefined && reading[item] !== select.value;
    select.classList.toggle("changed", changed);
    const polygon = document.querySelector(`#overlay polygon[data-item="${CSS.escape(item)}"]`);
    if (polygon) polygon.classList.toggle("changed", changed);
    const text = document.querySelector(`#overlay text[data-item="${CSS.escape(item)}"]`);
    if (text) text.textContent = select.value;
  }
}

function buildItems(view) {
  const items = $("items");
  items.replaceChildren();
  for (const [item, kind] of state.summary.items) {
    const label = document.createElement("label");
    label.htmlFor = `item-${item}`;
    label.textContent = item;
    const select = document.createElement("select");
    select.id = `item-${item}`;
    select.dataset.item = item;
    const vocabulary = view.vocabulary || state.summary.vocabulary;
    const choices = [...(vocabulary[kind] || [])];
    const value = view.labels ? view.labels[item] : undefined;
    if (value !== undefined && !choices.includes(value)) choices.push(value);
    // Nothing read and nothing saved: no label rather than the list's first, which would pass for a choice.
    if (value === undefined) select.append(new Option("—", ""));
    for (const choice of choices) select.append(new Option(choice, choice));
    if (value !== undefined) select.value = value;
    select.addEventListener("change", markChanges);
    select.addEventListener("focus", () => highlight(item));
    items.append(label, select);
  }
}

function highlight(item) {
  for (const polygon of document.querySelectorAll("#overlay polygon")) {
    polygon.classList.toggle("chosen", polygon.dataset.item === item);
  }
}

async function show(n) {
  const count = state.summary.frames.length;
  state.n = Math.max(0, Math.min(count - 1, n));
  say("");
  const view = await api(`/api/frames/${state.n}`);
  state.view = view;
  $("image").src = `/api/frames/${state.n}/image`;
  $("position").textContent = `frame ${state.n} of ${count - 1} (t = ${view.entry.t} s)`;
  $("goto").value = state.n;
  $("markers").textContent = view.regions
    ? `markers found: ${view.markers.join(", ") || "none (the last ones found are used)"}`
    : `no layout to draw: ${view.message || "the corner markers are not in view"}`;
  for (const flag of ["hand", "motion", "reference"]) $(flag).checked = Boolean(view.entry[flag]);
  $("unlabelled").checked = view.entry.labels === null && (view.entry.hand || view.entry.motion);
  $("prefilled").classList.toggle("hidden", !view.prefilled);
  drawRegions(view);
  buildItems(view);
  markChanges();
}

function frameChange() {
  const labels = {};
  for (const select of document.querySelectorAll("#items select")) {
    if (select.value) labels[select.dataset.item] = select.value;
  }
  return {
    labels: $("unlabelled").checked ? null : labels,
    hand: $("hand").checked,
    motion: $("motion").checked,
    reference: $("reference").checked,
  };
}

async function save() {
  try {
    const view = await api(`/api/frames/${state.n}`, frameChange());
    state.summary.frames[state.n] = view.entry;
    state.view = view;
    say(`frame ${state.n} saved`, "saved");
    return true;
  } catch (error) {
    say(`not saved: ${error.message}`, "error");
    return false;
  }
}

async function saveSetup(event) {
  event.preventDefault();
  const setup = {};
  for (const key of ["table", "edition", "camera_height_mm", "camera_tilt_deg", "figure_height_mm"]) {
    const input = $(`setup-${key}`);
    if (input.value === "") continue;
    setup[key] = input.type === "number" ? Number(input.value) : input.value;
  }
  try {
    state.summary = { ...state.summary, ...(await api("/api/setup", setup)) };
    say("setup saved", "saved");
  } catch (error) {
    say(`setup not saved: ${error.message}`, "error");
  }
}

function fillSetup() {
  for (const [key, value] of Object.entries(state.summary.setup || {})) {
    const input = $(`setup-${key}`);
    if (input && value !== null) input.value = value;
  }
}

async function start() {
  state.summary = await api("/api/recording");
  fillSetup();
  $("goto").max = state.summary.frames.length - 1;
  $("previous").addEventListener("click", () => show(state.n - 1));
  $("next").addEventListener("click", () => show(state.n + 1));
  $("goto").addEventListener("change", () => show(Number($("goto").value)));
  $("frame-form").addEventListener("submit", (event) => { event.preventDefault(); save(); });
  $("save-next").addEventListener("click", async () => { if (await save()) show(state.n + 1); });
  $("setup-form").addEventListener("submit", saveSetup);
  for (const flag of ["hand", "motion"]) {
    // A frame nobody labelled that shows a hand or motion is usually left unlabelled: it is not scored.
    $(flag).addEventListener("change", () => {
      if ($(flag).checked && state.view.entry.labels === null) $("unlabelled").checked = true;
    });
  }
  document.addEventListener("keydown", (event) => {
    if (["INPUT", "SELECT", "TEXTAREA"].includes(document.activeElement.tagName)) return;
    if (event.key === "ArrowLeft") show(state.n - 1);
    if (event.key === "ArrowRight") show(state.n + 1);
  });
  await show(0);
}

start().catch((error) => say(`cannot load the recording: ${error.message}`, "error"));
