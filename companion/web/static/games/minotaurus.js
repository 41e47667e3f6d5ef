// Minotaurus: the pieces on the table (face down as backs only), each player's pairs per colour
// with their horns, a challenge and its tosses as they land, and a tie-break toss-off.
"use strict";

(() => {
  const { el, chip, nameOf, cssColour, t, registerGame } = Companion;
  const HORN = { left: "◀ left", right: "right ▶" };

  function pieceCell(cell, position) {
    if (typeof cell === "string") {
      return el("div", { class: `cell ${cell}`, title: t("position {position}: {state}", { position, state: t(cell) }),
        "data-target": `pos:${position}` },
        cell === "turning" ? "?" : cell === "down" ? el("span", { class: "quiet" }, position) : "");
    }
    return el("div", { class: "cell piece", style: `background:${cssColour(cell.colour)}`, "data-target": `pos:${position}`,
      title: `position ${position}: ${cell.colour} ${cell.value} ${cell.horn}` },
    el("span", { class: "value" }, cell.value), el("span", { class: "horn" }, HORN[cell.horn] || cell.horn));
  }

  function tossChips(view, challenge) {
    const seats = [challenge.challenger, challenge.opponent];
    const chips = challenge.tosses.map((toss) => el("span", { class: `toss ${toss.success ? "hit" : "miss"}` },
      `${nameOf(view, toss.player)}: ${toss.success ? "hit ✔" : "miss ✘"}`));
    if (chips.length < 2 && !view.ranking) {
      chips.push(el("span", { class: "toss pending" }, `${nameOf(view, seats[chips.length])}: tossing…`));
    }
    return chips;
  }

  registerGame("minotaurus", {
    scoreUnit: "pairs",
    // Turning a piece over, and the table's answer of what it shows, touch its position.
    targets(action) {
      return action.position === undefined ? [] : [`pos:${action.position}`];
    },
    targetName(key) {
      return t("position {position}", { position: key.split(":")[1] });
    },
    seatFacts(view, pub, seat) {
      const holdings = (pub.holdings || [])[seat] || {};
      return Object.entries(holdings).map(([colour, pair]) => el("span", {
        class: `chip${pair.resolved ? " resolved" : ""}`, style: `border-left: .7rem solid ${cssColour(colour)}`,
        title: `${colour}: left horn ${pair.left}, right horn ${pair.right}${pair.resolved ? " (a pair)" : ""}`,
      }, `${colour} `, el("b", {}, `${pair.left}|${pair.right}`)));
    },
    banner(view, pub) {
      const parts = [];
      if (pub.challenge) {
        const c = pub.challenge;
        parts.push(el("div", { class: "banner", id: "challenge" },
          el("h3", {}, `${nameOf(view, c.challenger)} challenges ${nameOf(view, c.opponent)}`),
          el("div", {}, "for ", el("span", { class: "swatch", style: `background:${cssColour(c.colour)}` }),
            `${c.colour} ${c.value}`),
          el("div", { class: "tosses" }, tossChips(view, c))));
      }
      if (pub.tie_break) {
        const tb = pub.tie_break;
        const hits = new Map(tb.hits);
        parts.push(el("div", { class: "banner", id: "tie-break" },
          el("h3", {}, tb.sudden_death ? "Tie-break: sudden death" : "Tie-break: three tosses each"),
          el("div", { class: "tosses" }, tb.order.map((seat) =>
            el("span", { class: "toss" }, `${nameOf(view, seat)}: ${hits.get(seat) || 0} hit(s)`)))));
      }
      return parts.length ? el("div", {}, parts) : null;
    },
    board(view, pub) {
      const table = pub.table;
      if (!table) return [];
      const grid = el("div", { class: "grid", id: "pieces", style: `grid-template-columns:repeat(${table.columns}, 1fr)` },
        table.cells.map(pieceCell));
      const down = table.cells.filter((cell) => cell === "down").length;
      return [grid, el("p", { class: "quiet" }, `${down} piece(s) face down · variant ${pub.variant}`)];
    },
  });
})();
