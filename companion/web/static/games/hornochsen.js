// Tanz der Hornochsen: the rows with their tiles, bullheads, cow-pats and specials; each player's
// place on the dunghill track, tiles behind the screen (a count only) and purchases announced.
"use strict";

(() => {
  const { el, chip, nameOf, t, registerGame } = Companion;

  function rowLine(pub, spec, tiles) {
    const squares = [];
    for (let square = 1; square <= spec.length; square += 1) {
      const tile = tiles[square - 1];
      const marks = [];
      if (spec.cow_pats && spec.cow_pats[String(square)] !== undefined) marks.push(`p${spec.cow_pats[String(square)]}`);
      if ((spec.double_squares || []).includes(square)) marks.push("×2");
      if ((spec.happy_cows || []).includes(square)) marks.push("☺");
      const special = marks.length > 0;
      squares.push(tile !== undefined
        ? el("span", { class: `tile${special ? " special" : ""}`, title: marks.join(" "), "data-target": `tile:${tile}` }, tile)
        : el("span", { class: `tile slot${special ? " special" : ""}` }, marks.join(" ") || "·"));
    }
    const active = (pub.active_rows || []).includes(spec.row);
    return el("div", { class: "row-line", "data-row": spec.row, "data-target": `row:${spec.row}`,
      "aria-label": t("row {row}", { row: spec.row }) },
      el("span", { class: "label" }, `${spec.row}${active ? "●" : ""}`), squares,
      el("span", { class: "tile special", title: t("bullhead") }, `B${spec.bullhead}`));
  }

  registerGame("hornochsen", {
    scoreUnit: t("on the track"),
    // A tile goes on a row; after a row is completed, tiles are kept from it.
    targets(action) {
      if (action.row !== undefined) return [`row:${action.row}`];
      return (action.tiles || []).map((tile) => `tile:${tile}`);
    },
    targetName(key) {
      const [kind, number] = key.split(":");
      return kind === "row" ? t("row {row}", { row: number }) : t("tile {tile}", { tile: number });
    },
    seatFacts(view, pub, seat) {
      return [
        chip(t("behind screen"), (pub.tiles_behind_screen || [])[seat]),
        chip(t("bought"), (pub.announced_purchases || [])[seat]),
        chip(t("tile down"), (pub.tiles_chosen || [])[seat] ? t("yes") : t("no")),
      ];
    },
    board(view, pub) {
      const specs = (pub.board && pub.board.rows) || [];
      const flags = [];
      if (pub.happy_cow_time) flags.push(t("happy cow time"));
      if (pub.double_round) flags.push(t("double round"));
      if (pub.open_round) flags.push(t("open round"));
      if (pub.next_round_open) flags.push(t("next round open"));
      const shown = (pub.tiles_shown || []).map((shownTile) => `${nameOf(view, shownTile.seat)}: ${shownTile.tile}`);
      return [
        el("div", { class: "facts" }, chip(t("round"), pub.round), chip(t("phase"), t(pub.phase)),
          chip(t("supply"), pub.supply_count), chip(t("box"), pub.box_count), flags.map((flag) => chip(flag, "✔"))),
        shown.length ? el("p", {}, t("Tiles shown: {tiles}", { tiles: shown.join(", ") })) : null,
        // A completed row's other tiles, of which the player keeps one or two: tapped on the host's page.
        (pub.completed_row_tiles || []).length ? el("div", { class: "row-line", id: "completed-row" },
          el("span", { class: "label" }, t("completed row")),
          pub.completed_row_tiles.map((tile) => el("span", { class: "tile", "data-target": `tile:${tile}` }, tile))) : null,
        pub.winner !== null && pub.winner !== undefined ? el("p", {}, t("Winner: {name}", { name: nameOf(view, pub.winner) })) : null,
        pub.loser !== null && pub.loser !== undefined ? el("p", {}, t("Hornochse: {name}", { name: nameOf(view, pub.loser) })) : null,
        el("div", { class: "rows scroll", id: "rows" }, specs.map((spec) => rowLine(pub, spec, (pub.rows || [])[spec.row] || []))),
        el("p", { class: "quiet" }, t("pN cow-pat · ×2 double square · ☺ happy cow · BN bullhead · ● row in play")),
        pub.board ? el("p", { class: "quiet" }, t("Dunghill at {dunghill}; Bull's Eye at {eyes}",
          { dunghill: pub.board.dunghill, eyes: (pub.board.bulls_eyes || []).join(", ") })) : null,
      ];
    },
  });
})();
