// Asterion: the labyrinth drawn tile by tile, large enough to read across the table: each tile a
// square in its colour with its corridors as they lie (turned), prisoners (impaled ones crossed out),
// coins, wings and horns; the free cells beside the labyrinth dashed. Every cell carries data-target
// "cell:x,y" for the host. Each player's tiles in hand, deck and discard, prisoners killed and escaping.
"use strict";

(() => {
  const { el, svg, chip, cssColour, t, registerGame } = Companion;
  const TILE = 100; // one cell in SVG units
  const TILE_PX = 64; // drawn size on the page; never under MIN_TILE_PX, the labyrinth's box scrolls instead
  const MIN_TILE_PX = 48;
  const HALF = TILE / 2;
  const SIDE_END = { N: [HALF, 0], E: [TILE, HALF], S: [HALF, TILE], W: [0, HALF] };
  const STEPS = [[0, -1], [1, 0], [0, 1], [-1, 0]];
  // The tiles' printed colours, a shade darker than the names' pure screen colours so the paths show.
  const TILE_COLOURS = { yellow: "#e9b820", blue: "#3d6fc4", red: "#c8413a", green: "#3f9a57" };

  function cellName(x, y) {
    return t("cell ({x}, {y})", { x, y });
  }

  // One path's corridor: straight through, a bend round the corner, a junction from the middle, or a
  // dead end (to the middle alone on the tile, a short stub beside another path).
  function corridor(path, alone) {
    const sides = [...path.sides];
    const ends = sides.map((side) => SIDE_END[side]);
    if (sides.length === 1) {
      const [x, y] = ends[0];
      const depth = alone ? 1 : 0.45;
      return { d: `M${x},${y} L${x + (HALF - x) * depth},${y + (HALF - y) * depth}`, spot: [x + (HALF - x) * depth, y + (HALF - y) * depth] };
    }
    if (sides.length === 2 && !/NS|SN|EW|WE/.test(path.sides)) {
      const [[x1, y1], [x2, y2]] = ends;
      return { d: `M${x1},${y1} Q${HALF},${HALF} ${x2},${y2}`, spot: [(x1 + x2) / 4 + HALF / 2, (y1 + y2) / 4 + HALF / 2] };
    }
    return { d: ends.map(([x, y]) => `M${x},${y} L${HALF},${HALF}`).join(" "), spot: [HALF, HALF] };
  }

  // Prisoners as figures along the path's spot, impaled ones crossed out; coins as gold discs.
  function pathMarks(path, [x, y]) {
    const marks = [];
    for (let index = 0; index < path.prisoners; index += 1) {
      const cx = x + (index - (path.prisoners - 1) / 2) * 26;
      // A figure 36 units tall (a third of the tile): head and shoulders, crossed out when impaled.
      marks.push(svg("g", { class: `prisoner${path.dead ? " dead" : ""}`, transform: `translate(${cx},${y})` },
        svg("circle", { cx: 0, cy: -10, r: 8.5 }), svg("path", { d: "M-12,17 Q0,-8 12,17 Z" }),
        path.dead ? svg("path", { class: "impaled", d: "M-14,-20 L14,18 M14,-20 L-14,18" }) : null));
    }
    for (let index = 0; index < path.coins; index += 1) {
      marks.push(svg("circle", { class: "coin", cx: x + 26 + index * 10, cy: y + 22, r: 9 }));
    }
    for (let index = 0; index < path.wings; index += 1) {
      const wx = x - 30 + index * 10;
      marks.push(svg("path", { class: "wing", d: `M${wx},${y + 26} q8,-22 22,-24 q-6,10 -4,24 z` }));
    }
    if (path.horns) marks.push(svg("path", { class: "horns", d: `M${x + 10},${y - 26} q10,14 20,0 m-20,0 q-2,-6 2,-10 m18,10 q2,-6 -2,-10` }));
    return marks;
  }

  function tileWords(tile) {
    const prisoners = tile.paths.reduce((sum, path) => sum + path.prisoners, 0);
    const dead = tile.paths.filter((path) => path.dead).reduce((sum, path) => sum + path.prisoners, 0);
    const coins = tile.paths.reduce((sum, path) => sum + path.coins, 0);
    const words = [cellName(tile.x, tile.y), tile.colour ? t("{colour} {design}", { colour: t(tile.colour), design: t(tile.design) }) : t(tile.design)];
    if (prisoners && dead) words.push(t("{count} prisoner(s), {dead} impaled", { count: prisoners, dead }));
    else if (prisoners) words.push(t("{count} prisoner(s)", { count: prisoners }));
    if (coins) words.push(t("{count} coin(s)", { count: coins }));
    return words.join(", ");
  }

  // Asterion himself on the middle tile: a bull's head with horns.
  function minotaur() {
    return svg("g", { class: "minotaur" },
      svg("path", { class: "horns-big", d: `M${HALF - 26},${HALF - 22} Q${HALF - 24},${HALF - 4} ${HALF - 10},${HALF - 6} M${HALF + 26},${HALF - 22} Q${HALF + 24},${HALF - 4} ${HALF + 10},${HALF - 6}` }),
      svg("ellipse", { class: "head", cx: HALF, cy: HALF + 4, rx: 13, ry: 17 }));
  }

  function tileGroup(tile, left, top) {
    const alone = tile.paths.length === 1;
    const drawn = tile.paths.map((path) => ({ path, ...corridor(path, alone) }));
    const words = tileWords(tile);
    return svg("g", { class: `tile-cell${tile.asterion ? " asterion" : ""}`, "data-target": `cell:${tile.x},${tile.y}`,
      "aria-label": words, role: "img", transform: `translate(${left},${top})` },
    svg("title", {}, words),
    svg("rect", { class: "ground", x: 2, y: 2, width: TILE - 4, height: TILE - 4, rx: 8, fill: TILE_COLOURS[tile.colour] || (tile.colour ? cssColour(tile.colour) : "#3b2b22") }),
    drawn.map(({ d }) => svg("path", { class: "corridor", d })),
    tile.design === "Asterion" ? minotaur() : null,
    drawn.map(({ path, spot }) => pathMarks(path, spot)));
  }

  function freeCell(x, y, left, top) {
    const words = t("{cell}, free", { cell: cellName(x, y) });
    return svg("g", { class: "tile-cell free", "data-target": `cell:${x},${y}`, "aria-label": words, role: "img",
      transform: `translate(${left},${top})` },
    svg("title", {}, words), svg("rect", { class: "ground", x: 4, y: 4, width: TILE - 8, height: TILE - 8, rx: 8 }));
  }

  function labyrinth(pub) {
    const tiles = (pub.board || []).map((tile) => ({ ...tile, asterion: tile.design === "Asterion" }));
    const taken = new Set(tiles.map((tile) => `${tile.x},${tile.y}`));
    const free = new Map();
    for (const tile of tiles) {
      for (const [dx, dy] of STEPS) {
        const key = `${tile.x + dx},${tile.y + dy}`;
        if (!taken.has(key)) free.set(key, [tile.x + dx, tile.y + dy]);
      }
    }
    const all = [...tiles.map((tile) => [tile.x, tile.y]), ...free.values()];
    const minX = Math.min(...all.map(([x]) => x));
    const minY = Math.min(...all.map(([, y]) => y));
    const columns = Math.max(...all.map(([x]) => x)) - minX + 1;
    const rows = Math.max(...all.map(([, y]) => y)) - minY + 1;
    const place = (x, y) => [(x - minX) * TILE, (y - minY) * TILE];
    return svg("svg", { class: "board-svg labyrinth", id: "labyrinth", viewBox: `0 0 ${columns * TILE} ${rows * TILE}`,
      role: "group", "aria-label": t("The labyrinth"),
      style: `width:100%;max-width:${columns * TILE_PX}px;min-width:${columns * MIN_TILE_PX}px` },
    [...free.values()].map(([x, y]) => freeCell(x, y, ...place(x, y))),
    tiles.map((tile) => tileGroup(tile, ...place(tile.x, tile.y))));
  }

  function actionCells(action) {
    const cells = [];
    if (action.x !== undefined) cells.push(`cell:${action.x},${action.y}`);
    if (action.other_x !== undefined) cells.push(`cell:${action.other_x},${action.other_y}`);
    return cells;
  }

  registerGame("asterion", {
    seatColour(view, pub, seat) { return (pub.colours || [])[seat]; },
    seatFacts(view, pub, seat) {
      const at = (key) => (pub[key] || [])[seat];
      return [chip(t("in hand"), at("tiles_in_hand")), chip(t("deck"), at("tiles_in_deck")),
        chip(t("discarded"), at("tiles_discarded")), chip(t("killed"), at("killed")),
        chip(t("escaping"), at("escaping_at_all")), chip(t("with coins"), at("escaping_with_coins")),
        chip(t("impaling"), at("impaling_points"))];
    },
    targets: actionCells,
    targetName(key) {
      const [x, y] = key.split(":")[1].split(",").map(Number);
      return cellName(x, y);
    },
    board(view, pub) {
      if (!(pub.board || []).length) return [];
      return [
        el("div", { class: "facts" }, chip(t("phase"), t(pub.phase)), pub.shown ? chip(t("tile shown"), t(pub.shown)) : null,
          pub.lifted ? chip(t("lifted"), t("{tile} from {cell}", { tile: `${pub.lifted.colour ? t(pub.lifted.colour) : ""} ${t(pub.lifted.design)}`.trim(),
            cell: cellName(pub.lifted.x, pub.lifted.y) })) : null),
        el("div", { class: "board-box scroll-box" }, labyrinth(pub)),
        el("p", { class: "quiet" }, t("Figures: prisoners (crossed out: impaled) · gold discs: coins · feathers: wings · dashed: free cells")),
      ];
    },
  });
})();
