// The host's new-game form, built from the games' own descriptions (GET /api/games): the game by its title
// and one line, the players by name in seat order (with their colours where the game gives them), who
// begins by name, and every option in words with its explanation in view. Readings where players differ
// (docs/rulings.md) are grouped as house rules. The form sends the values the game's options name: the
// host never sees a seat number or an option's code name.
"use strict";

Companion.newGameForm = (() => {
  const { el, $, t, swatch } = Companion;
  // Colour names come from the seed files; these are the ones the games use, for the translator.
  const COLOUR_WORDS = { red: t("red"), blue: t("blue"), yellow: t("yellow"), green: t("green") };
  let games = [];
  let send = null;
  let club = null; // the club's roster and who signed in here (GET /api/club), at a table in a club

  function chosenGame() {
    return games.find((game) => game.name === $("new-game-name").value);
  }

  function playerCount(game) {
    const input = document.querySelector('[data-option="players"]');
    const wanted = input ? Number(input.value) || game.min_players : game.min_players;
    return Math.max(game.min_players, Math.min(wanted, game.max_players));
  }

  function nameInputs() {
    return [...$("new-game-names").querySelectorAll("input")];
  }

  // ---------------------------------------------------------------- one option

  function helpFor(option) {
    return el("p", { class: "quiet option-help", id: `new-game-help-${option.name}` }, option.description);
  }

  function choiceField(option) {
    const radios = option.choices.map((choice, index) => el("label", {},
      el("input", { type: "radio", name: `new-game-${option.name}`, value: index,
        checked: choice === option.default, "aria-describedby": `new-game-help-${option.name}` }),
      ` ${option.choice_labels[index]}`));
    return el("fieldset", { "data-option": option.name, class: "option" },
      el("legend", {}, option.label), helpFor(option), radios);
  }

  function numberField(option) {
    const id = `new-game-${option.name}`;
    const input = el("input", { type: "number", id, "data-option": option.name, value: option.default,
      min: option.minimum, max: option.maximum, required: true, inputmode: "numeric",
      "aria-describedby": `new-game-help-${option.name}` });
    if (option.name === "players") input.addEventListener("input", renderNameRows);
    return el("div", { class: "option" }, el("label", { for: id }, option.label), helpFor(option), input);
  }

  // "Who begins" lists the players by the names typed above; once the host has picked someone, the
  // choice follows that player moved up or down (untouched, it stays with the first place).
  function seatField(option) {
    const id = `new-game-${option.name}`;
    const select = el("select", { id, "data-option": option.name, "data-seat-picker": "",
      "aria-describedby": `new-game-help-${option.name}`, onchange: () => { select.dataset.picked = "yes"; } });
    return el("div", { class: "option" }, el("label", { for: id }, option.label), helpFor(option), select);
  }

  function renderSeatPickers() {
    const names = nameInputs().map((input, seat) => input.value.trim() || t("Player {n}", { n: seat + 1 }));
    for (const select of document.querySelectorAll("[data-seat-picker]")) {
      const chosen = Math.min(Number(select.value) || 0, names.length - 1);
      select.replaceChildren(...names.map((name, seat) => el("option", { value: seat }, name)));
      select.value = String(chosen);
    }
  }

  function optionValue(option) {
    const control = $("new-game-options").querySelector(`[data-option="${option.name}"]`);
    if (option.choices) return option.choices[Number(control.querySelector("input:checked").value)];
    return Number(control.value);
  }

  // ---------------------------------------------------------------- players in seat order

  function colourNode(game, seat) {
    const colour = game.colours[seat];
    if (!colour) return null;
    return el("span", { class: "seat-colour" }, swatch(colour), ` ${COLOUR_WORDS[colour] || colour}`);
  }

  function swapNames(seat, step) {
    const inputs = nameInputs();
    const other = seat + step;
    if (!inputs[other]) return;
    [inputs[seat].value, inputs[other].value] = [inputs[other].value, inputs[seat].value];
    for (const select of document.querySelectorAll("[data-seat-picker][data-picked]")) {
      if (Number(select.value) === seat) select.value = String(other);
      else if (Number(select.value) === other) select.value = String(seat);
    }
    renderSeatPickers();
  }

  function nameRow(game, seat) {
    const place = seat + 1;
    return el("div", { class: "field-row name-row", "data-seat": seat },
      el("span", { class: "quiet" }, `${place}.`), colourNode(game, seat),
      el("input", { type: "text", required: true, maxlength: 40, style: "flex: 1 1 5rem; min-width: 5rem",
        value: t("Player {n}", { n: place }), list: "club-names",
        "aria-label": t("Name of player {n}", { n: place }), oninput: renderSeatPickers }),
      el("button", { type: "button", class: "icon-button up", onclick: () => swapNames(seat, -1),
        "aria-label": t("Move player {n} up", { n: place }) }, "↑"),
      el("button", { type: "button", class: "icon-button down", onclick: () => swapNames(seat, 1),
        "aria-label": t("Move player {n} down", { n: place }) }, "↓"));
  }

  // Rows are added or taken away at the end, never redrawn: a name being typed keeps its field.
  function renderNameRows() {
    const game = chosenGame();
    const fieldset = $("new-game-names");
    const count = playerCount(game);
    let rows = fieldset.querySelectorAll(".name-row");
    for (let seat = rows.length; seat < count; seat += 1) fieldset.append(nameRow(game, seat));
    for (let seat = rows.length - 1; seat >= count; seat -= 1) rows[seat].remove();
    rows = fieldset.querySelectorAll(".name-row");
    rows.forEach((row, seat) => {
      row.querySelector(".up").disabled = seat === 0;
      row.querySelector(".down").disabled = seat === rows.length - 1;
    });
    renderSeatPickers();
  }

  // ---------------------------------------------------------------- the whole form

  function fieldFor(option) {
    if (option.seat) return seatField(option);
    return option.choices ? choiceField(option) : numberField(option);
  }

  // Another game keeps the names typed so far, in their places.
  function renderGame() {
    const game = chosenGame();
    const typed = $("new-game-names") ? nameInputs().map((input) => input.value) : [];
    $("new-game-summary").textContent = game.summary || "";
    const players = game.options.filter((option) => option.name === "players");
    const others = game.options.filter((option) => option.name !== "players");
    const settings = others.filter((option) => !option.house_rule);
    const houseRules = others.filter((option) => option.house_rule);
    const names = el("fieldset", { id: "new-game-names" }, el("legend", {}, t("Players in seat order")),
      el("p", { class: "quiet" }, t("Clockwise round the table, starting anywhere.")), clubNames());
    $("new-game-options").replaceChildren(...players.map(fieldFor), names, ...settings.map(fieldFor),
      houseRules.length ? el("fieldset", { id: "new-game-house-rules" },
        el("legend", {}, t("House rules (where players read the rules differently)")),
        houseRules.map(fieldFor)) : null,
      el("p", { class: "error", id: "new-game-error", role: "alert" }));
    renderNameRows();
    nameInputs().forEach((input, seat) => { if (typed[seat] !== undefined) input.value = typed[seat]; });
    renderSeatPickers();
  }

  // At a club night the names offered are the players signed in here first, then the club's roster:
  // a game started with them counts in the league under those names.
  function clubNames() {
    if (!club || !club.club) return null;
    const others = club.members.map((member) => member.name).filter((name) => !club.present.includes(name));
    return [el("datalist", { id: "club-names" }, [...club.present, ...others].map((name) => el("option", { value: name }))),
      el("p", { class: "quiet", id: "club-present-names" }, club.present.length
        ? t("Signed in for the club here: {names}", { names: club.present.join(", ") })
        : t("Nobody has signed in for the club here yet (the scoreboard's QR code)."))];
  }

  // Players sign in while the host waits: the names are asked for again each time the form opens.
  async function refreshClub() {
    if (!$("new-game-box").open || !$("new-game-names")) return;
    try { club = await (await fetch("/api/club")).json(); } catch (error) { return; }
    for (const old of [$("club-names"), $("club-present-names")]) if (old) old.remove();
    const fresh = clubNames();
    if (fresh) $("new-game-names").querySelector("p").after(...fresh);
  }

  async function startGame(event) {
    event.preventDefault();
    const game = chosenGame();
    const options = Object.fromEntries(game.options.map((option) => [option.name, optionValue(option)]));
    const names = nameInputs().map((input) => input.value.trim());
    $("new-game-error").textContent = "";
    const created = await send("/api/games", { game: game.name, options, names });
    // A refusal shows beside the button pressed, not only at the top of the page, out of sight on a phone.
    if (created) $("new-game-box").open = false;
    else $("new-game-error").textContent = $("error").textContent;
  }

  async function loadGames() {
    try { club = await (await fetch("/api/club")).json(); } catch (error) { club = null; }
    const response = await fetch("/api/games");
    games = (await response.json()).games;
    const select = $("new-game-name");
    select.replaceChildren(...games.map((game) => el("option", { value: game.name }, game.title)));
    select.addEventListener("change", renderGame);
    if (games.length) renderGame();
  }

  // `post(url, body)` sends as the signed-in host and resolves to the answer, or null when refused.
  return function start(post) {
    send = post;
    $("new-game").addEventListener("submit", startGame);
    $("new-game-box").addEventListener("toggle", refreshClub);
    return loadGames();
  };
})();
