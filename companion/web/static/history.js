// History: past games, a step-through replay of any of them drawn like the live scoreboard,
// the exports, and per-player statistics with the plots the Pi draws itself (SVG).
"use strict";

(() => {
  const { el, $, renderScoreboard, initTheme, withNames, gameText, t } = Companion;
  let replaying = null; // {id, step, steps}
  const finished = new Map(); // game id -> whether its record is of a finished game

  async function getJson(url) {
    const response = await fetch(url, { cache: "no-store" });
    const data = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(data.error || t("the table answered {status}", { status: response.status }));
    return data;
  }

  function showError(error) {
    $("error").textContent = String(error.message || error);
  }

  function outcome(game) {
    if (game.error) return t("cannot replay: {error}", { error: game.error });
    if (!game.finished) return t("being played");
    if (!game.winners || !game.winners.length) return t("over");
    return t("won by {names}", { names: game.winners.map((seat) => game.names[seat]).join(t(" and ")) });
  }

  async function loadGames() {
    try {
      const data = await getJson("/api/history");
      for (const game of data.games) finished.set(game.id, game.finished);
      const rows = data.games.map((game) => el("tr", { "data-game": game.id },
        el("td", {}, el("button", { type: "button", onclick: () => openReplay(game.id, null, true) }, `#${game.id}`)),
        el("td", {}, el("strong", {}, game.title || game.game), el("br"), game.names.join(", "), el("br"),
          el("span", { class: "quiet nowrap" }, (game.created || "").slice(0, 16).replace("T", " "))),
        el("td", {}, outcome(game))));
      $("games").querySelector("tbody").replaceChildren(...rows);
      if (!rows.length) $("games").querySelector("tbody").append(el("tr", {}, el("td", {}, t("No games recorded yet."))));
    } catch (error) {
      showError(error);
    }
  }

  async function openReplay(id, step, scroll = false) {
    $("error").textContent = "";
    try {
      const query = step === null ? "" : `?step=${step}`;
      let data = await getJson(`/api/history/${id}/replay${query}`);
      if (step === null && data.steps > 0) data = await getJson(`/api/history/${id}/replay?step=${data.steps}`);
      replaying = { id, step: data.step, steps: data.steps };
      const view = data.view;
      $("replay-section").classList.remove("hidden");
      $("replay-title").textContent = view.game ? t("Replay of game {id}: {title}", { id, title: view.game.title })
        : t("Replay of game {id}", { id });
      $("step").max = data.steps;
      $("step").value = data.step;
      $("step-label").textContent = data.event
        ? t("Event {step} of {steps}: {label} ({source})", { step: data.step, steps: data.steps,
          label: gameText(withNames(view, data.event.label || data.event.kind)), source: t(data.event.source) })
        : t("The start ({steps} events in all)", { steps: data.steps });
      // replaceChildren, unlike el, writes a null child as the text "null": only links that exist are passed.
      const exports = [el("a", { class: "button", href: `/api/history/${id}/record.jsonl`, download: true },
        t("Export JSON lines"))];
      if (finished.get(id)) {
        exports.push(el("a", { class: "button", href: `/api/history/${id}/bgstats.json`, download: true },
          t("Export for BG Stats")));
      }
      $("exports").replaceChildren(...exports);
      renderScoreboard($("replay"), view);
      if (scroll) $("replay-section").scrollIntoView();
      history.replaceState(null, "", `#game=${id}&step=${data.step}`);
    } catch (error) {
      showError(error);
    }
  }

  function stepTo(step) {
    if (!replaying) return;
    const next = Math.max(0, Math.min(replaying.steps, step));
    if (next !== replaying.step) openReplay(replaying.id, next);
  }

  function percent(rate) {
    return rate === null || rate === undefined ? "–" : `${Math.round(rate * 100)} %`;
  }

  let statsGame = "";
  const knownGames = new Map(); // game name -> title

  async function loadStats() {
    const query = statsGame ? `?game=${encodeURIComponent(statsGame)}` : "";
    try {
      const data = await getJson(`/api/stats${query}`);
      // The games seen so far stay in the choice: statistics of one game name no other.
      const titles = knownGames;
      for (const player of data.players) {
        for (const [name, perGame] of Object.entries(player.by_game || {})) titles.set(name, perGame.title);
      }
      const filter = el("select", { id: "stats-game", "aria-label": t("Statistics of"), onchange: (event) => {
        statsGame = event.target.value;
        loadStats();
      } }, el("option", { value: "" }, t("All games")),
      [...(statsGame && !titles.has(statsGame) ? [[statsGame, statsGame]] : []), ...titles].map(([name, title]) =>
        el("option", { value: name, selected: name === statsGame }, title)));
      if (!data.players.length) {
        $("stats").replaceChildren(filter, el("p", { class: "quiet" }, t("Statistics appear once a game is finished.")));
        return;
      }
      // Toss figures only where tosses were made: four of the five games have no ring toss at all.
      const tossed = data.players.some((player) => player.tosses.count > 0);
      const rows = data.players.map((player) => el("tr", {},
        el("td", {}, player.name), el("td", {}, player.games), el("td", {}, player.wins),
        tossed ? el("td", {}, percent(player.tosses.rate), el("span", { class: "quiet" }, ` ${t("of {count}", { count: player.tosses.count })}`),
          el("br"), el("span", { class: "quiet" }, Object.entries(player.tosses.rate_by_horn || {})
            .map(([horn, rate]) => `${horn} ${percent(rate)}`).join(", "))) : null));
      const plot = (path, alt) => el("img", { class: "plot", src: path, alt });
      const scorePlots = [...titles].filter(([name]) => !statsGame || name === statsGame).map(([name, title]) =>
        plot(`/api/stats/plots/scores.svg?game=${encodeURIComponent(name)}`, t("final scores in {title}", { title })));
      $("stats").replaceChildren(
        filter,
        el("p", { class: "quiet" }, t("{count} finished game(s)", { count: data.games })),
        el("div", { class: "scroll" }, el("table", { class: "plain", id: "stats-table" },
          el("thead", {}, el("tr", {}, [t("Player"), t("Games"), t("Wins"), ...(tossed ? [t("Tosses (by horn)")] : [])]
            .map((h) => el("th", {}, h)))),
          el("tbody", {}, rows))),
        plot(`/api/stats/plots/wins.svg${query}`, t("wins per player")),
        ...(tossed ? [plot(`/api/stats/plots/tosses.svg${query}`, t("toss success rate over time")),
          plot(`/api/stats/plots/horns.svg${query}`, t("tosses landing on each horn"))] : []),
        ...scorePlots);
    } catch (error) {
      $("stats").replaceChildren(el("p", { class: "error" }, String(error.message || error)));
    }
  }

  initTheme();
  $("live").classList.add("hidden");
  $("first").addEventListener("click", () => stepTo(0));
  $("back").addEventListener("click", () => replaying && stepTo(replaying.step - 1));
  $("forward").addEventListener("click", () => replaying && stepTo(replaying.step + 1));
  $("last").addEventListener("click", () => replaying && stepTo(replaying.steps));
  $("step").addEventListener("change", (event) => stepTo(Number(event.target.value)));
  loadGames();
  loadStats();
  const wanted = /game=(\d+)(?:&step=(\d+))?/.exec(location.hash);
  if (wanted) openReplay(Number(wanted[1]), wanted[2] === undefined ? null : Number(wanted[2]));
})();
