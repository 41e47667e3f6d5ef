// The live table page: renders each view the server pushes, and sends the host's inputs.
// Every text from the server goes in with textContent, never as HTML.
"use strict";

const CHANCE = -1;
let view = null;
let gameDescriptions = [];

const $ = (id) => document.getElementById(id);

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === "class") node.className = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value);
  }
  for (const child of children) {
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function nameOf(seat) {
  if (seat === CHANCE) return "Table";
  const names = view && view.game ? view.game.names : [];
  return names[seat] !== undefined ? names[seat] : `seat ${seat}`;
}

// Labels and waiting texts speak of "seat 2"; people at the table know each other by name.
function withNames(text) {
  return String(text).replace(/\bseat (\d+)/g, (match, seat) => nameOf(Number(seat)));
}

// ------------------------------------------------------------------ sending

async function send(url, body) {
  $("error").textContent = "";
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body || {}),
    });
    const data = await response.json();
    if (!response.ok) {
      $("error").textContent = data.error || `refused (${response.status})`;
      return null;
    }
    if (data.state) render(data.state);
    return data;
  } catch (error) {
    $("error").textContent = `The table did not answer: ${error}`;
    return null;
  }
}

function submitAction(action) {
  send("/api/actions", { action, after: view.seq, game_id: view.game.id });
}

// ------------------------------------------------------------------ rendering

function render(next) {
  if (view && next.id === view.id) return;
  view = next;
  renderStatus();
  renderBoard();
  renderPlayers();
  renderMoves();
  renderLog();
  renderTableControls();
}

function renderStatus() {
  const game = view.game;
  $("title").textContent = game ? `${game.title} · game ${game.id}` : "Minotaur Companion";
  if (!game) {
    $("status").textContent = "No game yet: the host starts one below.";
  } else if (view.ranking) {
    const winners = view.ranking[0].map(nameOf).join(" and ");
    $("status").textContent = `Game over: ${winners} ${view.ranking[0].length > 1 ? "share" : "wins"} first place.`;
  } else {
    $("status").textContent = `Waiting for ${withNames(view.to_act.waiting_for)}.`;
  }
  document.title = game ? `${game.title} · Minotaur Companion` : "Minotaur Companion";
  renderDevices();
}

// What the table's devices report (view.table.status, by channel): "toss now", "clear the horn", faults.
// A fault stays on every phone until the device reports it fixed.
function renderDevices() {
  const box = $("devices");
  const lines = [];
  let trouble = false;
  for (const [channel, status] of Object.entries(view.table.status || {})) {
    const faults = status.faults || [];
    const text = [status.message, ...faults.filter((f) => !(status.message || "").includes(f))]
      .filter(Boolean)
      .join(" · ");
    if (text) lines.push(`${channel}: ${text}`);
    if (faults.length || ["fault", "blocked", "void"].includes(status.state)) trouble = true;
  }
  box.textContent = lines.join("\n");
  box.hidden = lines.length === 0;
  box.classList.toggle("trouble", trouble);
}

function pieceText(piece) {
  return `${piece.colour} ${piece.value} ${piece.horn === "left" ? "◀" : "▶"}`;
}

function renderBoard() {
  const board = $("board");
  board.replaceChildren();
  const pub = view.public;
  if (!pub) return;
  if (pub.table && Array.isArray(pub.table.cells)) {
    const grid = element("div", { class: "board" });
    grid.style.gridTemplateColumns = `repeat(${pub.table.columns}, 1fr)`;
    pub.table.cells.forEach((cell, position) => {
      if (typeof cell === "string") {
        grid.append(element("div", { class: `cell ${cell}`, title: `position ${position}: ${cell}` },
          cell === "turning" ? "?" : ""));
      } else {
        const node = element("div", { class: "cell piece", title: `position ${position}` }, pieceText(cell));
        node.style.background = cell.colour;
        grid.append(node);
      }
    });
    board.append(grid);
  } else {
    board.append(element("pre", {}, JSON.stringify(pub, null, 2)));
  }
  if (pub.challenge) {
    const c = pub.challenge;
    const tosses = c.tosses.map((t) => `${nameOf(t.player)} ${t.success ? "hit" : "missed"}`).join(", ");
    board.append(element("p", {},
      `${nameOf(c.challenger)} challenges ${nameOf(c.opponent)} for ${c.colour} ${c.value}` +
      (tosses ? `: ${tosses}` : "")));
  }
}

function holdingsOf(seat) {
  const holdings = view.public && Array.isArray(view.public.holdings) ? view.public.holdings[seat] : null;
  const cell = element("td");
  if (!holdings) return cell;
  for (const [colour, pair] of Object.entries(holdings)) {
    const chip = element("span", { class: pair.resolved ? "chip resolved" : "chip" },
      `${colour} ${pair.left}|${pair.right}`);
    chip.style.borderColor = colour;
    cell.append(chip);
  }
  return cell;
}

function renderPlayers() {
  const body = $("players").querySelector("tbody");
  body.replaceChildren();
  if (!view.game) return;
  view.game.names.forEach((name, seat) => {
    const row = element("tr", {}, element("td", {}, seat), element("td", {}, name),
      element("td", {}, view.scores[seat] !== undefined ? view.scores[seat] : ""), holdingsOf(seat));
    if (view.to_act.seats.includes(seat)) row.className = "to-act";
    body.append(row);
  });
}

function renderMoves() {
  const moves = $("moves");
  moves.replaceChildren();
  const bySeat = new Map();
  for (const legal of view.legal) {
    if (!bySeat.has(legal.by)) bySeat.set(legal.by, []);
    bySeat.get(legal.by).push(legal);
  }
  for (const [seat, actions] of bySeat) {
    const title = seat === CHANCE ? "The table shows…" : `${nameOf(seat)} may`;
    const group = element("div", { class: "moves-group" }, element("h3", {}, title));
    for (const legal of actions) {
      group.append(element("button", { type: "button", onclick: () => submitAction(legal.action) },
        withNames(legal.label)));
    }
    moves.append(group);
  }
  if (view.table.simulate && view.table.autoplay && view.game && !view.ranking) {
    moves.prepend(element("p", { class: "quiet" },
      "Simulated players are playing; switch them off below to enter moves yourself."));
  }
  $("undo").disabled = !view.game || view.seq === 0;
}

function renderLog() {
  const log = $("log");
  log.replaceChildren();
  for (const entry of [...view.log].reverse()) {
    const who = entry.by === null ? "" : `${nameOf(entry.by)}: `;
    const item = element("li", { value: entry.seq, title: `${entry.at} from ${entry.source}` },
      `${who}${withNames(entry.label)} `, element("span", { class: "quiet" }, `(${entry.source})`));
    if (entry.undone) item.className = "undone";
    log.append(item);
  }
}

function renderTableControls() {
  $("autoplay-box").hidden = !view.table.simulate;
  $("autoplay").checked = view.table.autoplay;
  const unfinished = $("unfinished");
  unfinished.replaceChildren();
  for (const game of view.table.unfinished) {
    unfinished.append(element("button", {
      type: "button",
      onclick: () => send(`/api/games/${game.id}/resume`, {}),
    }, `Resume game ${game.id}: ${game.title} (${game.names.join(", ")})`));
  }
}

// ------------------------------------------------------------------ new game form

function optionField(option) {
  let input;
  if (option.choices) {
    input = element("select", { name: option.name });
    for (const choice of option.choices) {
      const item = element("option", { value: JSON.stringify(choice) }, String(choice));
      if (choice === option.default) item.selected = true;
      input.append(item);
    }
  } else {
    input = element("input", { type: "number", name: option.name, value: option.default });
    if (option.minimum !== null) input.min = option.minimum;
    if (option.maximum !== null) input.max = option.maximum;
  }
  input.dataset.option = option.name;
  if (option.name === "players") input.addEventListener("change", renderNameFields);
  return element("label", {}, `${option.description} `, input);
}

function chosenGame() {
  return gameDescriptions.find((game) => game.name === $("new-game-name").value);
}

function renderNameFields() {
  const game = chosenGame();
  const fieldset = $("new-game-names");
  const previous = [...fieldset.querySelectorAll("input")].map((input) => input.value);
  fieldset.replaceChildren(element("legend", {}, "Players"));
  const players = document.querySelector('[data-option="players"]');
  const count = players ? Number(players.value) : game.min_players;
  for (let seat = 0; seat < count; seat += 1) {
    const input = element("input", { type: "text", required: "", value: previous[seat] || `Player ${seat + 1}` });
    fieldset.append(element("label", {}, `Seat ${seat} `, input));
  }
}

function renderOptionFields() {
  const game = chosenGame();
  $("new-game-options").replaceChildren(...game.options.map(optionField));
  renderNameFields();
}

async function loadGames() {
  const response = await fetch("/api/games");
  gameDescriptions = (await response.json()).games;
  const select = $("new-game-name");
  select.replaceChildren(...gameDescriptions.map((game) => element("option", { value: game.name }, game.title)));
  select.addEventListener("change", renderOptionFields);
  if (gameDescriptions.length) renderOptionFields();
}

async function startGame(event) {
  event.preventDefault();
  const options = {};
  for (const input of document.querySelectorAll("[data-option]")) {
    options[input.dataset.option] = input.tagName === "SELECT" ? JSON.parse(input.value) : Number(input.value);
  }
  const names = [...$("new-game-names").querySelectorAll("input")].map((input) => input.value.trim());
  const created = await send("/api/games", { game: $("new-game-name").value, options, names });
  if (created) $("new-game-box").open = false;
}

// ------------------------------------------------------------------ live updates

function connect() {
  // EventSource reconnects by itself and sends Last-Event-ID, so the server sends only what we miss.
  const source = new EventSource("/api/events");
  source.onopen = () => { $("connection").textContent = "Live."; };
  source.onerror = () => { $("connection").textContent = "Connection lost; reconnecting…"; };
  source.onmessage = (message) => render(JSON.parse(message.data));
}

$("undo").addEventListener("click", () =>
  send("/api/undo", view && view.game ? { after: view.seq, game_id: view.game.id } : {}));
$("autoplay").addEventListener("change", (event) => send("/api/autoplay", { on: event.target.checked }));
$("new-game").addEventListener("submit", startGame);
loadGames();
connect();
