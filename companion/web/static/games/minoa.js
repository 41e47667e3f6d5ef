// Minoa: each player's colour, pieces in hand and territory; sticks left; the areas closed off so far.
"use strict";

(() => {
  const { el, chip, nameOf, swatch, registerGame } = Companion;

  function colourOf(pub, seat) {
    return (pub.colours || [])[seat];
  }

  registerGame("minoa", {
    scoreUnit: "triangles",
    seatColour(view, pub, seat) { return colourOf(pub, seat); },
    seatFacts(view, pub, seat) {
      const colour = colourOf(pub, seat);
      const facts = [
        chip("pieces in hand", (pub.pieces_in_hand || {})[colour]),
        chip("territory", (pub.territory || {})[colour]),
      ];
      if (pub.teams) {
        const team = pub.teams.find((members) => members.includes(seat) || members.includes(colour));
        if (team) facts.push(chip("team", team.map((member) => (typeof member === "number" ? nameOf(view, member) : member)).join(" + ")));
      }
      return facts;
    },
    board(view, pub) {
      const lines = pub.lines || [];
      const sticks = lines.filter((line) => line === "stick").length;
      const pieces = lines.filter((line) => line !== null && line !== "stick").length;
      const closed = (pub.areas || []).filter((area) => area.claimed_by && area.claimed_by.length);
      const rows = closed.map((area) => el("tr", {},
        el("td", {}, area.size),
        el("td", {}, area.claimed_by.map((colour) => el("span", {}, swatch(colour), colour, " "))),
        el("td", {}, area.vacant_edge_lines)));
      return [
        el("div", { class: "facts" }, chip("sticks left", pub.sticks_left), chip("sticks on the board", sticks),
          chip("pieces on the board", pieces), chip("areas", (pub.areas || []).length)),
        pub.end ? el("p", {}, `The game ended: ${pub.end}`) : null,
        closed.length
          ? el("div", { class: "scroll" }, el("table", { class: "plain" },
            el("thead", {}, el("tr", {}, el("th", {}, "Area size"), el("th", {}, "Claimed by"), el("th", {}, "Open edge lines"))),
            el("tbody", {}, rows)))
          : el("p", { class: "quiet" }, "No area is claimed yet."),
      ];
    },
  });
})();
