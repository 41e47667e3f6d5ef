// The host's table control: sign in with the table PIN, then set up games, enter any action by hand
// (the table's answers too: reveals, tosses), confirm or overturn a toss verdict, undo.
// Every POST carries the session's CSRF token in X-CSRF-Token; the cookie alone acts for nobody.
"use strict";

(() => {
  const { CHANCE, t, gameText, el, $, nameOf, withNames, rendererFor, renderScoreboard, setTitle, initTheme, LiveTable,
    showConnection, statusText, deviceDetailItems } = Companion;
  const QUICK_BUTTONS = 12;
  let view = null;
  let csrfToken = null;
  let signedIn = false;

  // ---------------------------------------------------------------- signing in

  function showSignedIn(yes, reason) {
    signedIn = yes;
    $("sign-in-section").classList.toggle("hidden", yes);
    $("controls").classList.toggle("hidden", !yes);
    $("advanced-section").classList.toggle("hidden", !yes);
    if (!yes && reason) $("sign-in-reason").textContent = reason;
    if (yes && view) renderControls();
  }

  async function checkSession() {
    try {
      const response = await fetch("/api/host/session", { cache: "no-store" });
      const session = await response.json();
      csrfToken = session.host ? session.csrf_token : null;
      showSignedIn(Boolean(session.host), session.expired ? session.reason : null);
    } catch (error) {
      showSignedIn(false, t("The table did not answer: {error}", { error }));
    }
  }

  async function signIn(event) {
    event.preventDefault();
    $("sign-in-error").textContent = "";
    const response = await fetch("/api/host/sign-in", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ pin: $("pin").value.trim() }),
    });
    const data = await response.json();
    if (!response.ok) {
      $("sign-in-error").textContent = data.error || t("refused ({status})", { status: response.status });
      return;
    }
    csrfToken = data.csrf_token;
    $("pin").value = "";
    showSignedIn(true);
  }

  async function signOut() {
    await send("/api/host/sign-out", {});
    csrfToken = null;
    showSignedIn(false, t("Signed out."));
  }

  // ---------------------------------------------------------------- sending

  async function send(url, body) {
    $("error").textContent = "";
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": csrfToken || "" },
        body: JSON.stringify(body || {}),
      });
      const data = await response.json().catch(() => ({}));
      if (response.status === 403) {
        await checkSession();
        if (!signedIn) $("sign-in-reason").textContent = data.error || t("Sign in again.");
        else $("error").textContent = data.error || t("refused ({status})", { status: 403 });
        return null;
      }
      if (!response.ok) {
        $("error").textContent = refusal(data, response.status);
        return null;
      }
      if (data.state) show(data.state);
      return data;
    } catch (error) {
      $("error").textContent = t("The table did not answer: {error}", { error });
      return null;
    }
  }

  // A game's refusal is English, "<reason> (rule: <rule>)": the frame is translated, the reason's words
  // where game_texts knows them, as are the table's own refusals (a stale input, nothing to undo).
  function refusal(data, status) {
    if (!data.error) return t("refused ({status})", { status });
    const text = withNames(view, data.error);
    const suffix = data.rule ? ` (rule: ${data.rule})` : null;
    if (!suffix || !text.endsWith(suffix)) return gameText(text);
    return t("{reason} (rule: {rule})", { reason: gameText(text.slice(0, -suffix.length)), rule: data.rule });
  }

  function submitAction(action) {
    return send("/api/actions", { action, after: view.seq, game_id: view.game.id });
  }

  // ---------------------------------------------------------------- toss verdicts

  // The latest event, if it is a verdict of the table (a toss judged by the sensors, or entered):
  // the host may confirm it, or overturn it with the other answer to the same question.
  function lastTableAnswer() {
    if (!view || !view.game || !view.log.length) return null;
    const entry = view.log[view.log.length - 1];
    if (entry.kind !== "action" || entry.by !== CHANCE || entry.undone) return null;
    if (!/toss/i.test(entry.label)) return null;
    return entry;
  }

  function confirmedAlready(entry) {
    const verdict = (view.table.status || {}).verdict;
    return Boolean(verdict && verdict.state === "confirmed" && verdict.game_id === view.game.id
      && verdict.seq === entry.seq);
  }

  // Beams and camera disagree on a toss (companion/vision/tosscheck.py): nothing is recorded until the host says.
  function renderTossCheck(box) {
    const check = (view.table.status || {})["toss-check"];
    if (!check || check.state !== "confirm" || !check.confirm) return false;
    const decide = (success) => send("/api/camera/toss", { success });
    box.replaceChildren(el("div", { class: "banner", id: "toss-check-box" },
      el("h3", {}, withNames(view, check.message)),
      el("button", { type: "button", id: "toss-check-ring", onclick: () => decide(true) }, t("A ring is over a horn")),
      el("button", { type: "button", id: "toss-check-clear", onclick: () => decide(false) }, t("No ring over a horn"))));
    return true;
  }

  function renderVerdict() {
    const box = $("verdict");
    if (renderTossCheck(box)) return;
    const entry = lastTableAnswer();
    if (!entry || confirmedAlready(entry)) {
      box.replaceChildren();
      return;
    }
    const missed = /miss/i.test(entry.label);
    const overturn = missed
      ? ["left", "right"].map((horn) => el("button", { type: "button", class: "overturn",
        onclick: () => overturnVerdict(entry, horn) },
        horn === "left" ? t("Overturn: a hit on the left horn") : t("Overturn: a hit on the right horn")))
      : [el("button", { type: "button", class: "overturn", onclick: () => overturnVerdict(entry, null) },
        t("Overturn: a miss"))];
    box.replaceChildren(el("div", { class: "banner", id: "verdict-box" },
      el("h3", {}, t("Verdict ({source}): {label}", { source: t(entry.source), label: gameText(withNames(view, entry.label)) })),
      el("button", { type: "button", id: "confirm-verdict", onclick: () => confirmVerdict(entry) }, t("Confirm")),
      overturn));
  }

  function confirmVerdict(entry) {
    return send(`/api/tosses/${entry.seq}/confirm`, { game_id: view.game.id });
  }

  // Nothing is erased: the server records an undo of the verdict and the corrected toss, as two events.
  function overturnVerdict(entry, horn) {
    const body = { game_id: view.game.id };
    if (horn) body.horn = horn;
    return send(`/api/tosses/${entry.seq}/overturn`, body);
  }

  // ---------------------------------------------------------------- moves

  function moveButton(legal) {
    return el("button", { type: "button", onclick: () => submitAction(legal.action) }, gameText(withNames(view, legal.label)));
  }

  // Few choices as buttons; many (a reveal of any piece, a stick on any line) as a list to filter and pick.
  function choiceList(title, actions) {
    if (actions.length <= QUICK_BUTTONS) return actions.map(moveButton);
    const select = el("select", { "aria-label": title, size: 6 },
      actions.map((legal, index) => el("option", { value: index }, gameText(withNames(view, legal.label)))));
    const filter = el("input", { type: "search", placeholder: t("Filter {count} choices", { count: actions.length }),
      oninput: () => {
        const words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
        for (const option of select.options) {
          option.hidden = !words.every((word) => option.textContent.toLowerCase().includes(word));
        }
        // Enter takes the selected choice: never one the filter hides.
        const selected = select.selectedOptions[0];
        if (!selected || selected.hidden) {
          const first = [...select.options].find((option) => !option.hidden);
          select.value = first ? first.value : "";
        }
      } });
    const enter = el("button", { type: "button", onclick: () => {
      const chosen = select.value === "" ? undefined : actions[Number(select.value)];
      if (chosen) submitAction(chosen.action);
      else $("error").textContent = t("Choose one first.");
    } }, t("Enter"));
    return [filter, select, enter];
  }

  // The board elements a move touches, as the game's renderer names them (data-target keys).
  function targetsOf(legal) {
    const renderer = rendererFor(view);
    return renderer.targets ? renderer.targets(legal.action) : [];
  }

  function filledGroup(group, children) {
    group.append(...children);
    return group;
  }

  // Moves on the board are entered by tapping it; their full list stays, folded, as the fallback.
  // Moves nothing on the board stands for (claim, end the turn, a toss) stay buttons in sight.
  function movesFor(seat, actions) {
    const title = seat === CHANCE ? t("The table shows…") : t("{name} may", { name: nameOf(view, seat) });
    const group = el("div", { class: "moves-group", "data-seat": seat }, el("h3", {}, title));
    if (seat === CHANCE) return filledGroup(group, choiceList(title, actions)); // the answers are folded already
    const onBoard = actions.filter((legal) => targetsOf(legal).length);
    const plain = actions.filter((legal) => !targetsOf(legal).length);
    if (plain.length) group.append(...choiceList(title, plain));
    if (onBoard.length) {
      group.append(el("p", { class: "quiet tap-hint" }, t("Tap the board below to choose a move there.")),
        el("details", { class: "all-choices" },
          el("summary", {}, t("All {count} moves on the board as a list", { count: onBoard.length })),
          choiceList(title, onBoard)));
    }
    return group;
  }

  // ---------------------------------------------------------------- tapping the board

  // What the host tapped: a data-target key, kept while the table stands at the same event.
  let picked = null;

  function tapChoices(key) {
    const fresh = answers.key === `${view.game.id}:${view.seq}` ? answers.list : [];
    return [...view.legal, ...fresh].filter((legal) => targetsOf(legal).includes(key));
  }

  function targetName(key) {
    const renderer = rendererFor(view);
    return renderer.targetName ? renderer.targetName(key, view) : key;
  }

  function tapBoard(event) {
    if (!signedIn || !view || !view.game || view.ranking) return;
    const keys = [];
    const root = $("scoreboard");
    for (let node = event.target.closest("[data-target]"); node && root.contains(node);
      node = node.parentElement && node.parentElement.closest("[data-target]")) keys.push(node.dataset.target);
    if (!keys.length) return;
    // A tile inside a row: the innermost element that some move touches, else the innermost.
    const key = keys.find((candidate) => tapChoices(candidate).length) || keys[0];
    picked = { key, at: `${view.game.id}:${view.seq}` };
    renderPicked();
  }

  function markPicked() {
    for (const node of $("scoreboard").querySelectorAll("[data-target].selected")) node.classList.remove("selected");
    if (!picked) return;
    for (const node of $("scoreboard").querySelectorAll("[data-target]")) {
      if (node.dataset.target === picked.key) node.classList.add("selected");
    }
  }

  function whoAndWhat(legal) {
    const label = gameText(withNames(view, legal.label));
    return legal.by === CHANCE || view.to_act.seats.length <= 1 ? label : `${nameOf(view, legal.by)}: ${label}`;
  }

  function renderPicked() {
    const box = $("tap-choice");
    if (picked && (!view.game || picked.at !== `${view.game.id}:${view.seq}`)) picked = null;
    markPicked();
    if (!picked) {
      box.replaceChildren();
      box.classList.add("hidden");
      return;
    }
    const choices = tapChoices(picked.key);
    const place = targetName(picked.key);
    const close = el("button", { type: "button", class: "tap-cancel", onclick: () => { picked = null; renderPicked(); } },
      t("Cancel"));
    let body;
    if (!choices.length) {
      body = [el("p", {}, t("Nothing can be done at {place} now.", { place }))];
    } else if (choices.length === 1) {
      body = [el("button", { type: "button", class: "primary", id: "tap-confirm",
        onclick: () => { picked = null; submitAction(choices[0].action); } },
      t("Confirm: {move}", { move: whoAndWhat(choices[0]) }))];
    } else {
      body = choices.map((legal) => el("button", { type: "button", class: "tap-option",
        onclick: () => { picked = null; submitAction(legal.action); } }, whoAndWhat(legal)));
    }
    box.replaceChildren(el("h3", {}, place), el("div", { class: "tap-buttons" }, body, close));
    box.classList.remove("hidden");
  }

  // Undo takes back the latest action still standing: the button says which.
  function undoLabel() {
    const standing = [...view.log].reverse().find((entry) => entry.kind === "action" && !entry.undone);
    if (!standing) return t("Undo the last action");
    const who = standing.by === null || standing.by === CHANCE ? "" : `${nameOf(view, standing.by)}: `;
    return t("Undo: {move}", { move: `${who}${gameText(withNames(view, standing.label))}` });
  }

  // The table's answers are not in the public view (a game narrows them by what it remembers of hidden
  // things); the host asks for them, and they stay folded until wanted, since the host plays too.
  let answers = { key: null, list: [] };
  let answersOpen = false;

  async function loadAnswers() {
    const key = `${view.game.id}:${view.seq}`;
    if (answers.key === key) return;
    try {
      const response = await fetch("/api/answers", { cache: "no-store" });
      if (!response.ok) return;
      const data = await response.json();
      answers = { key: `${data.game_id}:${data.seq}`, list: data.answers };
      if (answers.key === `${view.game.id}:${view.seq}`) renderMoves();
    } catch (error) {
      // The next view tries again.
    }
  }

  function answersGroup() {
    const fresh = answers.key === `${view.game.id}:${view.seq}`;
    const box = el("details", { class: "moves-group", id: "table-answers", open: answersOpen,
      ontoggle: () => { answersOpen = box.open; } },
    el("summary", {}, t("Enter what the table shows (the camera and sensors usually do)")),
    fresh ? movesFor(CHANCE, answers.list) : el("p", { class: "quiet" }, t("Asking the table…")));
    return box;
  }

  // Redrawn only when the choices change: a device's status update must not wipe a half-typed filter.
  let movesKey = null;

  function renderMoves() {
    const key = JSON.stringify([view.game ? view.game.id : null, view.seq, view.legal, answers.key,
      view.table.autoplay, Boolean(view.ranking)]);
    if (key === movesKey) return;
    movesKey = key;
    const moves = $("moves");
    const bySeat = new Map();
    for (const legal of view.legal) {
      if (!bySeat.has(legal.by)) bySeat.set(legal.by, []);
      bySeat.get(legal.by).push(legal);
    }
    const groups = [...bySeat].map(([seat, actions]) => movesFor(seat, actions));
    if (view.game && !view.ranking && view.to_act.seats.includes(CHANCE)) {
      groups.unshift(answersGroup());
      loadAnswers();
    }
    if (view.table.simulate && view.table.autoplay && view.game && !view.ranking) {
      groups.unshift(el("p", { class: "quiet" },
        t("Simulated players are playing; switch them off below to enter moves yourself.")));
    }
    moves.replaceChildren(...groups);
    $("undo").disabled = !view.game || view.seq === 0;
    $("undo").textContent = view.game ? undoLabel() : t("Undo the last action");
    renderPicked();
  }

  function renderTableControls() {
    $("autoplay-box").classList.toggle("hidden", !view.table.simulate);
    $("autoplay").checked = view.table.autoplay;
    $("unfinished").replaceChildren(...view.table.unfinished.map((game) => el("button", {
      type: "button", onclick: () => send(`/api/games/${game.id}/resume`, {}),
    }, t("Resume game {id}: {title} ({names})", { id: game.id, title: game.title, names: game.names.join(", ") }))));
  }

  function renderControls() {
    $("host-waiting").textContent = statusText(view);
    if (!view.game) $("new-game-box").open = true;
    renderVerdict();
    renderMoves();
    renderTableControls();
    renderDeviceDetails();
  }

  // The scoreboard says one line per device; the host may unfold every problem and each beam's state.
  function renderDeviceDetails() {
    const items = deviceDetailItems(view);
    let box = $("device-details");
    if (!items.length) {
      if (box) box.remove();
      return;
    }
    if (!box) {
      box = el("details", { id: "device-details" }, el("summary", {}, t("The devices in detail")), el("ul"));
      $("act-section").append(box);
    }
    box.querySelector("ul").replaceChildren(...items);
  }

  // A view's id is "<boot>-<number>", numbered as published. A POST's answer can arrive after the live
  // stream brought a later view (another phone started a game meanwhile): the older one must not win.
  function olderThanShown(next) {
    if (!view) return false;
    const [boot, number] = [String(next.id).replace(/-\d+$/, ""), Number(String(next.id).split("-").pop())];
    const [shownBoot, shownNumber] = [String(view.id).replace(/-\d+$/, ""), Number(String(view.id).split("-").pop())];
    return boot === shownBoot && number <= shownNumber;
  }

  function show(next) {
    if (olderThanShown(next)) return;
    view = next;
    setTitle(view);
    document.body.dataset.viewId = view.id;
    document.body.dataset.seq = view.seq;
    renderScoreboard($("scoreboard"), view);
    if (signedIn) renderControls();
    markPicked();
  }

  async function submitRaw(event) {
    event.preventDefault();
    let action;
    try {
      action = JSON.parse($("raw").value);
    } catch (error) {
      $("error").textContent = t("That is not a move written as JSON: {problem}", { problem: error.message });
      return;
    }
    if (await submitAction(action)) $("raw").value = "";
  }

  // ---------------------------------------------------------------- joining

  async function loadJoin() {
    $("join-url").textContent = $("join-url").href = `${location.origin}/`;
    try {
      const response = await fetch("/api/join");
      if (!response.ok) return;
      const join = await response.json();
      if (join.url) $("join-url").textContent = $("join-url").href = join.url;
      if (join.mdns_host) $("join-name").textContent = ` ${t("or {name}", { name: join.mdns_host })}`;
      if (join.qr_svg) {
        $("join-qr").src = join.qr_svg;
        $("join-qr").classList.remove("hidden");
      }
    } catch (error) {
      // The address above is enough to join.
    }
  }

  initTheme();
  $("sign-in").addEventListener("submit", signIn);
  $("sign-out").addEventListener("click", signOut);
  $("undo").addEventListener("click", () =>
    send("/api/undo", view && view.game ? { after: view.seq, game_id: view.game.id } : {}));
  $("autoplay").addEventListener("change", (event) => send("/api/autoplay", { on: event.target.checked }));
  $("raw-action").addEventListener("submit", submitRaw);
  $("scoreboard").addEventListener("click", tapBoard);
  checkSession();
  Companion.newGameForm(send);
  loadJoin();
  new LiveTable(show, showConnection).start();
})();
