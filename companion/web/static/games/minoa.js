// Minoa: the hexagonal board drawn as it lies on the table (sticks black on their lines, coloured
// pieces on the edge, closed-off areas shaded in their claimer's colour), each player's colour,
// pieces in hand and territory. Lines and triangles are numbered as docs/minoa-board.md and
// companion/games/minoa/board.py number them; every line carries data-target "line:N" for the host.
"use strict";

(() => {
  const { el, svg, chip, nameOf, cssColour, t, registerGame } = Companion;
  const SIDE = 4;
  const STEP = 10; // one lattice edge in SVG units
  const ROW = STEP * Math.sqrt(3) / 2;
  const SIDE_NAMES = ["top", "upper right", "lower right", "bottom", "lower left", "upper left"];

  // The board's lattice in board.py's doubled coordinates: y counts point rows from the top, x half
  // steps from the centre line. Lines sort by midpoint, triangles by (top row, sum of x): its numbering.
  function buildBoard(side) {
    const points = new Set();
    for (let y = 0; y <= 2 * side; y += 1) {
      const length = side + 1 + Math.min(y, 2 * side - y);
      for (let x = -(length - 1); x < length; x += 2) points.add(`${x},${y}`);
    }
    const has = (x, y) => points.has(`${x},${y}`);
    const lines = [];
    const triangles = [];
    for (const key of points) {
      const [x, y] = key.split(",").map(Number);
      for (const [ox, oy] of [[x + 2, y], [x - 1, y + 1], [x + 1, y + 1]]) {
        if (has(ox, oy)) lines.push([[x, y], [ox, oy]]);
      }
      if (has(x - 1, y + 1) && has(x + 1, y + 1)) triangles.push([[x, y], [x - 1, y + 1], [x + 1, y + 1]]);
      if (has(x + 2, y) && has(x + 1, y + 1)) triangles.push([[x, y], [x + 2, y], [x + 1, y + 1]]);
    }
    const lineKey = ([[x1, y1], [x2, y2]]) => [y1 + y2, x1 + x2];
    const triangleKey = (corners) => [Math.min(...corners.map((c) => c[1])), corners.reduce((s, c) => s + c[0], 0)];
    const byKey = (key) => (a, b) => { const [p, q] = [key(a), key(b)]; return p[0] - q[0] || p[1] - q[1]; };
    lines.sort(byKey(lineKey));
    triangles.sort(byKey(triangleKey));
    return { lines, triangles, edgeNames: edgeNames(side, lines, triangles) };
  }

  // Edge lines (those bordering one triangle only) walking clockwise from the top left corner, named as
  // the game's labels name them ("upper right side, 1 of 4 clockwise").
  function edgeNames(side, lines, triangles) {
    const number = new Map(lines.map(([a, b], index) => [`${a}|${b}`, index]));
    const lineOf = (a, b) => number.get(`${a}|${b}`) ?? number.get(`${b}|${a}`);
    const bordering = new Array(lines.length).fill(0);
    for (const [p, q, r] of triangles) for (const [a, b] of [[p, q], [q, r], [p, r]]) bordering[lineOf(a, b)] += 1;
    const at = new Map();
    lines.forEach(([a, b], index) => {
      if (bordering[index] !== 1) return;
      for (const [here, there] of [[`${a}`, `${b}`], [`${b}`, `${a}`]]) {
        if (!at.has(here)) at.set(here, []);
        at.get(here).push([index, there]);
      }
    });
    const names = new Map();
    let [here, previous] = [`${-side},0`, `${-side - 2},0`];
    for (let walked = 0; walked < 6 * side; walked += 1) {
      const [index, there] = at.get(here).find(([, next]) => next !== previous);
      names.set(index, t("{side} side, {place} of {count} clockwise",
        { side: t(SIDE_NAMES[Math.floor(walked / side)]), place: walked % side + 1, count: side }));
      [previous, here] = [here, there];
    }
    return names;
  }

  const BOARD = buildBoard(SIDE);

  const at = ([x, y]) => [(x + 2 * SIDE) * STEP / 2 + STEP / 2, y * ROW + STEP / 2];

  function lineName(number) {
    const edge = BOARD.edgeNames.get(number);
    return edge ? t("edge line {line} ({place})", { line: number, place: edge }) : t("line {line}", { line: number });
  }

  function colourOf(pub, seat) {
    return (pub.colours || [])[seat];
  }

  // Claimed areas shaded in the claimer's colour (two claimers of a tie: each at half strength).
  function triangleShades(pub) {
    const shade = new Map();
    for (const area of pub.areas || []) {
      if (!area.claimed_by || !area.claimed_by.length) continue;
      for (const triangle of area.triangles) shade.set(triangle, area.claimed_by);
    }
    return shade;
  }

  // A finger-wide band along a line, short of its ends so neighbouring lines stay apart: what a tap hits.
  function hitArea(x1, y1, x2, y2) {
    const [dx, dy] = [(x2 - x1) / STEP, (y2 - y1) / STEP];
    const [nx, ny] = [-dy * 2.6, dx * 2.6];
    const [ax, ay, bx, by] = [x1 + dx * 1.8, y1 + dy * 1.8, x2 - dx * 1.8, y2 - dy * 1.8];
    return [[ax + nx, ay + ny], [bx + nx, by + ny], [bx - nx, by - ny], [ax - nx, ay - ny]].map((p) => p.join(",")).join(" ");
  }

  function boardPicture(pub) {
    const holds = pub.lines || [];
    const shades = triangleShades(pub);
    const triangles = BOARD.triangles.map((corners, number) => {
      const claim = shades.get(number);
      return svg("polygon", {
        class: `triangle${claim ? " claimed" : ""}`, "data-triangle": number,
        points: corners.map((corner) => at(corner).join(",")).join(" "),
        fill: claim ? cssColour(claim[0]) : "none", "fill-opacity": claim ? 0.45 / claim.length : 0,
      });
    });
    const lines = BOARD.lines.map(([a, b], number) => {
      const [[x1, y1], [x2, y2]] = [at(a), at(b)];
      const content = holds[number];
      const kind = content === "stick" ? "stick" : content ? "piece" : "empty";
      const name = content === "stick" ? t("{line}: black stick", { line: lineName(number) })
        : content ? t("{line}: {colour} piece", { line: lineName(number), colour: t(content) }) : lineName(number);
      const ends = { x1, y1, x2, y2 };
      return svg("g", { class: `line ${kind}`, "data-target": `line:${number}`, "data-line": number,
        "aria-label": name, role: "img" },
      svg("title", {}, name),
      svg("polygon", { class: "hit", points: hitArea(x1, y1, x2, y2) }),
      kind === "piece" ? svg("line", { ...ends, class: "piece-rim" }) : null,
      svg("line", { ...ends, class: "mark", stroke: kind === "piece" ? cssColour(content) : null,
        style: kind === "piece" ? `stroke:${cssColour(content)}` : null }));
    });
    const [width, height] = [2 * SIDE * STEP + STEP, 2 * SIDE * ROW + STEP];
    return svg("svg", { class: "board-svg", id: "minoa-board", viewBox: `0 0 ${width} ${height}`,
      role: "group", "aria-label": t("The Minoa board") }, triangles, lines);
  }

  registerGame("minoa", {
    scoreUnit: t("triangles"),
    seatColour(view, pub, seat) { return colourOf(pub, seat); },
    seatFacts(view, pub, seat) {
      const colour = colourOf(pub, seat);
      const facts = [
        chip(t("pieces in hand"), (pub.pieces_in_hand || {})[colour]),
        chip(t("territory"), (pub.territory || {})[colour]),
      ];
      if (pub.teams) {
        const team = pub.teams.find((members) => members.includes(seat) || members.includes(colour));
        if (team) facts.push(chip(t("team"), team.map((member) => (typeof member === "number" ? nameOf(view, member) : member)).join(" + ")));
      }
      return facts;
    },
    targets(action) {
      return action.line === undefined ? [] : [`line:${action.line}`];
    },
    targetName(key) {
      return lineName(Number(key.split(":")[1]));
    },
    board(view, pub) {
      const lines = pub.lines || [];
      const sticks = lines.filter((line) => line === "stick").length;
      const pieces = lines.filter((line) => line !== null && line !== "stick").length;
      return [
        el("div", { class: "board-box" }, boardPicture(pub)),
        el("div", { class: "facts" }, chip(t("sticks left"), pub.sticks_left), chip(t("sticks on the board"), sticks),
          chip(t("pieces on the board"), pieces), chip(t("areas"), (pub.areas || []).length)),
        pub.end ? el("p", {}, t("The game ended: {why}", { why: pub.end })) : null,
      ];
    },
  });
})();
