// Asterion: the labyrinth as a grid of placed tiles (colour, design, prisoners, coins), and each
// player's tiles in hand, in the deck and discarded, prisoners killed and escaping.
"use strict";

(() => {
  const { el, chip, cssColour, registerGame } = Companion;
  const ARROWS = { N: "↑", E: "→", S: "↓", W: "←" };

  function tileCell(tile) {
    const prisoners = tile.paths.reduce((sum, path) => sum + path.prisoners, 0);
    const dead = tile.paths.filter((path) => path.dead).length;
    const coins = tile.paths.reduce((sum, path) => sum + path.coins, 0);
    const sides = tile.paths.map((path) => [...path.sides].map((side) => ARROWS[side] || side).join("")).join(" ");
    const marks = `${prisoners ? "☺".repeat(prisoners - dead) + "✝".repeat(dead) : ""}${coins ? "●".repeat(coins) : ""}`;
    return el("div", {
      class: "cell", title: `${tile.design} at (${tile.x}, ${tile.y})${tile.colour ? `, ${tile.colour}` : ""}`,
      style: `grid-column:${tile.col};grid-row:${tile.row};background:${tile.colour ? cssColour(tile.colour) : "var(--accent)"};color:#000`,
    }, el("span", {}, tile.design === "Asterion" ? "♉" : sides), el("span", {}, marks));
  }

  registerGame("asterion", {
    seatColour(view, pub, seat) { return (pub.colours || [])[seat]; },
    seatFacts(view, pub, seat) {
      const at = (key) => (pub[key] || [])[seat];
      return [chip("in hand", at("tiles_in_hand")), chip("deck", at("tiles_in_deck")),
        chip("discarded", at("tiles_discarded")), chip("killed", at("killed")),
        chip("escaping", at("escaping_at_all")), chip("with coins", at("escaping_with_coins")),
        chip("impaling", at("impaling_points"))];
    },
    board(view, pub) {
      const tiles = pub.board || [];
      if (!tiles.length) return [];
      const xs = tiles.map((tile) => tile.x);
      const ys = tiles.map((tile) => tile.y);
      const minX = Math.min(...xs);
      const minY = Math.min(...ys);
      const columns = Math.max(...xs) - minX + 1;
      const placed = tiles.map((tile) => ({ ...tile, col: tile.x - minX + 1, row: tile.y - minY + 1 }));
      return [
        el("div", { class: "facts" }, chip("phase", pub.phase), pub.shown ? chip("tile shown", pub.shown) : null,
          pub.lifted ? chip("lifted", `${pub.lifted.colour || ""} ${pub.lifted.design} from (${pub.lifted.x}, ${pub.lifted.y})`) : null),
        el("div", { class: "scroll" }, el("div", { class: "grid", id: "labyrinth",
          style: `grid-template-columns:repeat(${columns}, minmax(2.6rem, 4.5rem))` }, placed.map(tileCell))),
        el("p", { class: "quiet" }, "☺ prisoner · ✝ impaled · ● coin · arrows: open sides"),
      ];
    },
  });
})();
