// Minos: each player's value, track, rings, ships and guards (cash only when the game shows it),
// the settlements with their buildings and owners, the dice of the turn, and a conflict.
"use strict";

(() => {
  const { el, chip, nameOf, valueNode, registerGame } = Companion;

  function playerOf(pub, seat) {
    return (pub.players || []).find((player) => player.seat === seat) || {};
  }

  function buildingsText(buildings) {
    const counts = new Map();
    for (const building of buildings) counts.set(building, (counts.get(building) || 0) + 1);
    return [...counts].map(([kind, count]) => `${count} ${kind.replace(/_/g, " ")}`).join(", ") || "–";
  }

  registerGame("minos", {
    outSeats(view, pub) {
      return (pub.players || []).filter((player) => player.out_of_the_game).map((player) => player.seat);
    },
    seatFacts(view, pub, seat) {
      const p = playerOf(pub, seat);
      const facts = [chip("value", p.value), chip("track", p.track), chip("rings", p.rings),
        chip("ships", p.ships_on_board), chip("guards", p.guards_on_board)];
      if (p.cash !== null && p.cash !== undefined) facts.push(chip("cash", p.cash));
      if (p.out_of_the_game) facts.push(chip("out of the game", "✘"));
      return facts;
    },
    banner(view, pub) {
      if (!pub.turn) return null;
      const turn = pub.turn;
      const dice = turn.dice.map((face, index) => el("span", {
        class: `toss${turn.used[index] ? " miss" : turn.set_aside[index] ? " hit" : ""}`,
        title: turn.used[index] ? "used" : turn.set_aside[index] ? "set aside" : "",
      }, face === null ? "?" : face));
      return el("div", { class: "banner", id: "dice" },
        el("h3", {}, `${nameOf(view, turn.seat)}'s dice (roll ${turn.rolls})`),
        el("div", { class: "tosses" }, dice),
        pub.conflict ? el("div", {}, el("strong", {}, "Conflict: "), valueNode(pub.conflict)) : null);
    },
    board(view, pub) {
      const rows = (pub.settlements || []).filter((s) => !s.out_of_play).map((s) => el("tr", {},
        el("td", {}, s.name), el("td", {}, buildingsText(s.buildings)), el("td", {}, s.value),
        el("td", {}, s.owner === null ? "–" : nameOf(view, s.owner)), el("td", {}, s.guards)));
      return [
        el("div", { class: "scroll" }, el("table", { class: "plain", id: "settlements" },
          el("thead", {}, el("tr", {}, ["Settlement", "Buildings", "Value", "Owner", "Guards"].map((h) => el("th", {}, h)))),
          el("tbody", {}, rows))),
        el("div", { class: "facts" }, chip("rings in supply", pub.ring_supply),
          Object.entries(pub.building_supply || {}).map(([kind, count]) => chip(kind.replace(/_/g, " "), count))),
      ];
    },
  });
})();
