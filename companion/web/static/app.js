// What every page shares: building elements, the theme toggle, the live connection to the table,
// and the scoreboard drawn from a public view. Each game draws its own part in static/games/<name>.js
// (Companion.registerGame); a game without one gets the generic rendering, readable for any view.
// Every text from the server goes in with textContent, never as HTML.
"use strict";

const Companion = (() => {
  const CHANCE = -1;
  const games = {};

  // Attributes (on* become listeners) and children (text or nodes) of a new element; false and null skip.
  function filled(node, attributes, children) {
    for (const [name, value] of Object.entries(attributes || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
      else node.setAttribute(name, value === true ? "" : value);
    }
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function el(tag, attributes = {}, ...children) {
    return filled(document.createElement(tag), attributes, children);
  }

  // The same for drawn boards: SVG elements need their namespace; a `title` child names a shape on hover
  // and for screen readers.
  function svg(tag, attributes = {}, ...children) {
    return filled(document.createElementNS("http://www.w3.org/2000/svg", tag), attributes, children);
  }

  const $ = (id) => document.getElementById(id);

  // ---------------------------------------------------------------- language

  const { t, gameText, lang } = window.CompanionLanguage; // i18n.js, loaded first

  function titleCase(key) {
    const text = String(key).replace(/_/g, " ");
    return text.charAt(0).toUpperCase() + text.slice(1);
  }

  // ---------------------------------------------------------------- names

  function nameOf(view, seat) {
    if (seat === CHANCE) return t("the table");
    const names = view && view.game ? view.game.names : [];
    return names[seat] !== undefined ? names[seat] : t("seat {seat}", { seat });
  }

  // Games speak of "seat 2" (and some of their colours); people at the table know each other by name.
  function withNames(view, text) {
    return String(text).replace(/\bseat (\d+)/g, (match, seat) => nameOf(view, Number(seat)));
  }

  // ---------------------------------------------------------------- theme

  function applyTheme(theme) {
    if (theme === "dark" || theme === "light") document.documentElement.dataset.theme = theme;
    else delete document.documentElement.dataset.theme;
  }

  function currentTheme() {
    const chosen = document.documentElement.dataset.theme;
    if (chosen) return chosen;
    return window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  }

  function initTheme() {
    let saved = null;
    try { saved = localStorage.getItem("theme"); } catch (error) { /* private mode: no memory */ }
    applyTheme(saved);
    const toggle = $("theme");
    if (!toggle) return;
    const label = () => {
      const next = currentTheme() === "dark" ? "light" : "dark";
      toggle.textContent = next === "dark" ? "☾" : "☀";
      toggle.title = toggle.ariaLabel = next === "dark" ? t("Switch to the dark theme") : t("Switch to the light theme");
    };
    toggle.addEventListener("click", () => {
      const next = currentTheme() === "dark" ? "light" : "dark";
      applyTheme(next);
      try { localStorage.setItem("theme", next); } catch (error) { /* private mode */ }
      label();
    });
    label();
  }

  // ---------------------------------------------------------------- live connection

  // Server-Sent Events read with fetch rather than EventSource: EventSource gives up for good after an
  // error answer (a 503 when the table is full) and cannot see keep-alive comments, so it cannot tell
  // a dead Wi-Fi link from a quiet table. Here every byte resets a watchdog, every failure is retried
  // with a growing pause, and each attempt sends Last-Event-ID so the server sends only what was missed.
  class LiveTable {
    constructor(onView, onState, { watchdogMs = 40000 } = {}) {
      this.onView = onView;
      this.onState = onState;
      this.watchdogMs = watchdogMs;
      this.lastId = null;
      this.retryMs = 1000;
      this.failures = 0;
      this.controller = null;
      this.timer = null;
      this.watchdog = null;
      window.addEventListener("online", () => this.reconnectNow());
      window.addEventListener("offline", () => { this.setState("offline"); this.abort(); });
      document.addEventListener("visibilitychange", () => {
        if (document.visibilityState === "visible" && !this.controller) this.reconnectNow();
      });
    }

    setState(state) {
      this.state = state;
      this.onState(state, this.failures);
    }

    start() { this.attempt(); }

    reconnectNow() {
      this.abort();
      clearTimeout(this.timer);
      this.timer = null;
      this.attempt();
    }

    abort() {
      if (this.controller) this.controller.abort();
      this.controller = null;
      clearTimeout(this.watchdog);
    }

    feed() {
      clearTimeout(this.watchdog);
      this.watchdog = setTimeout(() => this.abort(), this.watchdogMs);
    }

    async attempt() {
      const controller = new AbortController();
      this.controller = controller;
      this.setState(this.failures ? "reconnecting" : "connecting");
      try {
        const headers = { Accept: "text/event-stream" };
        if (this.lastId) headers["Last-Event-ID"] = this.lastId;
        this.feed();
        const response = await fetch("/api/events", { headers, signal: controller.signal, cache: "no-store" });
        if (!response.ok || !response.body) throw new Error(t("the table answered {status}", { status: response.status }));
        await this.read(response.body.getReader(), controller);
      } catch (error) {
        // Aborted by the watchdog or offline, refused, or the network is gone: all mean "try again".
      }
      if (this.controller === controller) this.controller = null;
      clearTimeout(this.watchdog);
      if (controller.signal.aborted && this.controller) return; // a newer attempt runs already
      this.failures += 1;
      this.setState(navigator.onLine === false ? "offline" : "reconnecting");
      const pause = Math.min(this.retryMs * 2 ** Math.min(this.failures - 1, 4), 15000);
      clearTimeout(this.timer);
      this.timer = setTimeout(() => { this.timer = null; this.attempt(); }, pause);
    }

    async read(reader, controller) {
      const decoder = new TextDecoder();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done || controller.signal.aborted) return;
        this.feed();
        buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, "\n");
        let end;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          this.dispatch(block);
        }
      }
    }

    dispatch(block) {
      let data = null;
      let id = null;
      for (const line of block.split("\n")) {
        if (!line || line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "data") data = data === null ? value : `${data}\n${value}`;
        else if (field === "id") id = value;
        else if (field === "retry" && /^\d+$/.test(value)) this.retryMs = Number(value);
      }
      if (this.state !== "live") {
        this.failures = 0;
        this.setState("live");
      }
      if (data === null) return;
      if (id !== null) this.lastId = id;
      this.onView(JSON.parse(data));
    }
  }

  const STATE_TEXT = {
    connecting: () => t("connecting…"),
    live: () => t("live"),
    reconnecting: () => t("reconnecting…"),
    offline: () => t("offline"),
  };

  // The badge always says how the page is connected; once a page has been live, losing the link also
  // puts a bar over the page, since what it shows may be out of date until it catches up.
  let everLive = false;

  function showConnection(state) {
    const badge = $("live");
    if (badge) {
      badge.dataset.state = state;
      badge.textContent = STATE_TEXT[state] ? STATE_TEXT[state]() : state;
    }
    if (state === "live") everLive = true;
    const stale = $("stale");
    if (stale) {
      stale.textContent = state === "offline"
        ? t("No network: this shows the table as it was; it catches up once the phone is back online.")
        : t("Connection to the table lost: reconnecting…");
      stale.classList.toggle("hidden", state === "live" || !everLive);
    }
  }

  // ---------------------------------------------------------------- generic rendering

  const COMMON_KEYS = new Set(["game", "players", "scores", "over", "ranking", "waiting_for", "current"]);

  function valueNode(value) {
    if (value === null || value === undefined) return "–";
    if (typeof value !== "object") return String(value);
    if (Array.isArray(value)) {
      if (value.every((item) => item === null || typeof item !== "object")) {
        return value.length ? value.map((item) => (item === null ? "–" : String(item))).join(", ") : t("none");
      }
      return el("ol", { start: 0 }, value.map((item) => el("li", {}, valueNode(item))));
    }
    return keyValues(value);
  }

  function keyValues(object, skip = new Set()) {
    const list = el("dl", { class: "kv" });
    for (const [key, value] of Object.entries(object)) {
      if (skip.has(key)) continue;
      list.append(el("dt", {}, titleCase(key)), el("dd", {}, valueNode(value)));
    }
    return list;
  }

  function seatCount(view) {
    return view.game ? view.game.names.length : 0;
  }

  // A list with one plain value per seat belongs on the players' cards; everything else on the board.
  function perSeatKeys(view, pub) {
    const seats = seatCount(view);
    return Object.keys(pub).filter((key) => !COMMON_KEYS.has(key) && Array.isArray(pub[key])
      && pub[key].length === seats && pub[key].every((item) => item === null || typeof item !== "object"));
  }

  const generic = {
    seatFacts(view, pub, seat) {
      return perSeatKeys(view, pub).map((key) => chip(titleCase(key), pub[key][seat]));
    },
    board(view, pub) {
      const skip = new Set([...COMMON_KEYS, ...perSeatKeys(view, pub)]);
      return [keyValues(pub, skip)];
    },
  };

  function registerGame(name, renderer) {
    games[name] = renderer;
  }

  function rendererFor(view) {
    const own = view.game ? games[view.game.name] : null;
    return { ...generic, ...(own || {}), name: own ? view.game.name : "generic" };
  }

  function chip(label, value, attributes = {}) {
    return el("span", { class: "chip", ...attributes }, `${label} `, el("b", {}, value === null || value === undefined ? "–" : value));
  }

  function swatch(colour) {
    return el("span", { class: "swatch", style: `background:${cssColour(colour)}` });
  }

  function cssColour(colour) {
    return /^[a-z]+$/i.test(String(colour)) ? colour : "transparent";
  }

  // ---------------------------------------------------------------- the scoreboard

  // Games whose players are colours speak of "yellow" and "green's tile": at the table, people have names.
  function withPlayerNames(view, text) {
    let named = withNames(view, text);
    const renderer = rendererFor(view);
    if (!view.game || !renderer.seatColour) return named;
    view.game.names.forEach((name, seat) => {
      const colour = renderer.seatColour(view, view.public || {}, seat);
      if (!/^[a-z]+$/i.test(String(colour))) return;
      named = named.replace(new RegExp(`^${colour}\\b(?!')`), `${name} (${t(colour)})`)
        .replace(new RegExp(`\\b${colour}'s\\b`, "g"), `${name}'s`);
    });
    return named;
  }

  function statusText(view) {
    if (!view.game) return t("No game yet: the host starts one.");
    if (view.ranking) {
      const winners = view.ranking[0].map((seat) => nameOf(view, seat));
      return winners.length > 1
        ? t("Game over: {names} share first place.", { names: winners.join(t(" and ")) })
        : t("Game over: {name} wins.", { name: winners[0] });
    }
    return t("Waiting for {what}.", { what: gameText(withPlayerNames(view, view.to_act.waiting_for)) });
  }

  // What the table's devices report (view.table.status by channel): "toss now", "clear the horn", faults.
  // One line per device, in the phone's language: the device made it in every language (`say`), the most
  // important fault first; the full list of faults and each beam's state stay in the JSON for the host.
  const DEVICE_NAMES = {
    sensors: () => t("Beams"), camera: () => t("Camera"), "toss-check": () => t("Toss check"),
    verdict: () => t("Verdict"),
  };

  function deviceLine(status) {
    const said = status.say && typeof status.say === "object" ? status.say : {};
    return said[lang()] || said.en || status.message || (status.faults || [])[0] || "";
  }

  function devicesNode(view) {
    const lines = [];
    let state = "idle";
    const rank = { idle: 0, armed: 1, void: 2, blocked: 2, fault: 3 };
    for (const [channel, status] of Object.entries((view.table && view.table.status) || {})) {
      // A report about one event (the host confirmed a verdict) holds only while the table stands there.
      if (status.seq !== undefined && (!view.game || status.game_id !== view.game.id || status.seq !== view.seq)) {
        continue;
      }
      const text = deviceLine(status);
      const device = DEVICE_NAMES[channel] ? DEVICE_NAMES[channel]() : titleCase(channel);
      if (text) lines.push(`${device}: ${withNames(view, text)}`);
      const own = (status.faults || []).length ? "fault" : status.state || "idle";
      if ((rank[own] || 0) > (rank[state] || 0)) state = own;
    }
    if (!lines.length) return null;
    return el("p", { class: "devices", id: "devices", "data-state": state, role: "status" }, lines.join("\n"));
  }

  // For the host: every problem of every device and each beam's state, where the scoreboard has one line.
  function deviceDetailItems(view) {
    const items = [];
    const inLanguage = (texts, fallback) => (texts && (texts[lang()] || texts.en)) || fallback;
    for (const status of Object.values((view.table && view.table.status) || {})) {
      for (const problem of status.problems || []) items.push(el("li", {}, inLanguage(problem, "")));
      for (const beam of status.beams || []) {
        const state = beam.state === "blocked" ? t("blocked") : t("clear");
        items.push(el("li", { class: `beam ${beam.state}` }, `${inLanguage(beam.words, beam.name)}: ${state}`));
      }
    }
    return items;
  }

  function playerCards(view, renderer) {
    const pub = view.public || {};
    const out = new Set(renderer.outSeats ? renderer.outSeats(view, pub) : []);
    return view.game.names.map((name, seat) => {
      const colour = renderer.seatColour ? renderer.seatColour(view, pub, seat) : null;
      const score = view.scores[seat];
      const card = el("article", {
        class: `player${view.to_act.seats.includes(seat) ? " to-act" : ""}${out.has(seat) ? " out" : ""}`,
        "data-seat": seat,
      },
      el("div", { class: "player-head" },
        el("span", { class: "player-name" }, colour ? swatch(colour) : null, name),
        el("span", { class: "player-score", title: t("score") }, score === undefined ? "" : score,
          renderer.scoreUnit ? el("small", {}, renderer.scoreUnit) : null)),
      el("div", { class: "facts" }, renderer.seatFacts(view, pub, seat)));
      return card;
    });
  }

  function rankingNode(view) {
    const items = [];
    let place = 1;
    for (const group of view.ranking) {
      for (const seat of group) {
        items.push(el("li", {}, el("span", { class: "place" }, `${place}.`), nameOf(view, seat),
          el("span", { class: "quiet" }, ` · ${view.scores[seat]}`)));
      }
      place += group.length;
    }
    return el("ol", { class: "ranking", id: "ranking" }, items);
  }

  const LOG_SHOWN = 5;

  // The latest few events in sight, the rest of the recent log one tap away.
  function logNode(view) {
    const items = [...view.log].reverse().map((entry) =>
      el("li", { value: entry.seq, class: entry.undone ? "undone" : null, title: t("{at} from {source}", { at: entry.at, source: t(entry.source) }) },
        entry.by === null || entry.by === CHANCE ? "" : `${nameOf(view, entry.by)}: `,
        gameText(withNames(view, entry.label)), " ", el("span", { class: "quiet" }, `(${t(entry.source)})`)));
    const latest = el("ol", { class: "log", id: "log" }, items.slice(0, LOG_SHOWN));
    if (items.length <= LOG_SHOWN) return latest;
    return el("div", {}, latest, el("details", {}, el("summary", { class: "quiet" }, t("Earlier")),
      el("ol", { class: "log" }, items.slice(LOG_SHOWN))));
  }

  // Fills `root` with the scoreboard of `view`: status, players, final ranking, board, log.
  function renderScoreboard(root, view) {
    const renderer = rendererFor(view);
    const parts = [];
    const header = el("section", { id: "status-section" },
      el("p", { class: `waiting${view.ranking ? " over" : ""}`, id: "waiting", "aria-live": "polite" },
        statusText(view)),
      view.game ? el("p", { class: "quiet", style: "margin:.2rem 0 0" },
        t("Game {game} · event {seq}", { game: view.game.id, seq: view.seq })
          + (view.table && view.table.simulate ? ` · ${t("simulated table")}` : "")) : null,
      devicesNode(view),
      view.game && renderer.banner ? renderer.banner(view, view.public || {}) : null);
    parts.push(header);
    if (view.game) {
      if (view.ranking) parts.push(el("section", {}, el("h2", {}, t("Final ranking")), rankingNode(view)));
      parts.push(el("section", { id: "players-section" }, el("h2", {}, t("Players")),
        el("div", { class: "players", id: "players" }, playerCards(view, renderer))));
      const board = renderer.board(view, view.public || {});
      if (board && board.length) {
        parts.push(el("section", { id: "board", "data-game": view.game.name, "data-renderer": renderer.name },
          el("h2", {}, t("Table")), board));
      }
      if (view.log.length) parts.push(el("section", {}, el("h2", {}, t("What happened")), logNode(view)));
    }
    root.replaceChildren(...parts);
  }

  // A host page's request: JSON both ways, the session's CSRF token on it, and a refusal as an Error
  // carrying the table's own words.
  async function requestJson(method, path, body, csrfToken) {
    const headers = { "Content-Type": "application/json" };
    if (csrfToken) headers["X-CSRF-Token"] = csrfToken;
    const response = await fetch(path, { method, headers, body: body ? JSON.stringify(body) : undefined });
    const data = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(data.error || t("refused ({status})", { status: response.status }));
    return data;
  }

  function setTitle(view) {
    const title = view.game ? view.game.title : "Minotaur Companion";
    const heading = $("title");
    if (heading) heading.textContent = title;
    document.title = view.game ? `${view.game.title} · Minotaur Companion` : "Minotaur Companion";
  }

  return {
    CHANCE, t, gameText, lang, el, svg, $, titleCase, nameOf, withNames, chip, swatch, cssColour, keyValues, valueNode,
    registerGame, rendererFor, renderScoreboard, deviceDetailItems, setTitle, initTheme, LiveTable, showConnection, statusText,
    requestJson,
  };
})();

window.Companion = Companion;
