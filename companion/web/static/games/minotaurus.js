// Minotaurus: the pieces on the table (face down as backs only), each player's pairs per colour
// with their horns, a challenge and its tosses as they land, and a tie-break toss-off.
"use strict";

(() => {
  const { el, chip, nameOf, cssColour, t, registerGame } = Companion;
  const HORN = { left: () => `◀ ${t("left")}`, right: () => `${t("right")} ▶` };

  function pieceCell(cell, position) {
    if (typeof cell === "string") {
      return el("div", { class: `cell ${cell}`, title: t("position {position}: {state}", { position, state: t(cell) }),
        "data-target": `pos:${position}` },
        cell === "turning" ? "?" : cell === "down" ? el("span", { class: "quiet" }, position) : "");
    }
    return el("div", { class: "cell piece", style: `background:${cssColour(cell.colour)}`, "data-target": `pos:${position}`,
      title: t("position {position}: {state}", { position, state: `${t(cell.colour)} ${cell.value} ${t(cell.horn)}` }) },
    el("span", { class: "value" }, cell.value), el("span", { class: "horn" }, HORN[cell.horn] ? HORN[cell.horn]() : cell.horn));
  }

  function tossChips(view, challenge) {
    const seats = [challenge.challenger, challenge.opponent];
    const chips = challenge.tosses.map((toss) => el("span", { class: `toss ${toss.success ? "hit" : "miss"}` },
      `${nameOf(view, toss.player)}: ${toss.success ? t("hit ✔") : t("miss ✘")}`));
    if (chips.length < 2 && !view.ranking) {
      chips.push(el("span", { class: "toss pending" }, `${nameOf(view, seats[chips.length])}: ${t("tossing…")}`));
    }
    return chips;
  }

  registerGame("minotaurus", {
    scoreUnit: t("pairs"),
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
        title: pair.resolved
          ? t("{colour}: left horn {left}, right horn {right} (a pair)", { colour: t(colour), ...pair })
          : t("{colour}: left horn {left}, right horn {right}", { colour: t(colour), ...pair }),
      }, `${t(colour)} `, el("b", {}, `${pair.left}|${pair.right}`)));
    },
    banner(view, pub) {
      const parts = [];
      if (pub.challenge) {
        const c = pub.challenge;
        parts.push(el("div", { class: "banner", id: "challenge" },
          el("h3", {}, t("{challenger} challenges {opponent}",
            { challenger: nameOf(view, c.challenger), opponent: nameOf(view, c.opponent) })),
          el("div", {}, `${t("for")} `, el("span", { class: "swatch", style: `background:${cssColour(c.colour)}` }),
            `${t(c.colour)} ${c.value}`),
          el("div", { class: "tosses" }, tossChips(view, c))));
      }
      if (pub.tie_break) {
        const tb = pub.tie_break;
        const hits = new Map(tb.hits);
        parts.push(el("div", { class: "banner", id: "tie-break" },
          el("h3", {}, tb.sudden_death ? t("Tie-break: sudden death") : t("Tie-break: three tosses each")),
          el("div", { class: "tosses" }, tb.order.map((seat) =>
            el("span", { class: "toss" }, t("{name}: {count} hit(s)", { name: nameOf(view, seat), count: hits.get(seat) || 0 }))))));
      }
      return parts.length ? el("div", {}, parts) : null;
    },
    board(view, pub) {
      const table = pub.table;
      if (!table) return [];
      const grid = el("div", { class: "grid", id: "pieces", style: `grid-template-columns:repeat(${table.columns}, 1fr)` },
        table.cells.map(pieceCell));
      const down = table.cells.filter((cell) => cell === "down").length;
      return [grid, el("p", { class: "quiet" }, t("{count} piece(s) face down · variant {variant}", { count: down, variant: t(pub.variant) }))];
    },
  });
})();
