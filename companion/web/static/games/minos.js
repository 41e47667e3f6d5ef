// Minos: the map drawn from the public view's "map" (seeds/minos.toml [map], places from [map.layout]):
// settlements with their owner, guards and buildings, ships in harbours and on the sea, guards on the
// land paths; the turn's dice as pictures. Value, track, rings, ships and guards stay as chips.
// Settlements, land points and sea fields carry data-target "field:NAME", dice "die:N", for the host.
"use strict";

(() => {
  const { el, svg, chip, nameOf, t, valueNode, registerGame } = Companion;
  // Seats have no colour in the public view; these draw their pieces apart (named in every title).
  const SEAT_COLOURS = ["firebrick", "royalblue", "goldenrod", "seagreen", "purple", "darkorange"];
  const SYMBOL_NAMES = { Pfeil: "Pfeil", Moewe: "Möwe", Gebaeude: "Gebäude", Waage: "Waage", Joker: "Joker", Stern: "Stern" };
  // Each symbol as a small drawing in a 24 x 24 box (strokes unless the shape says fill).
  const SYMBOL_ICONS = {
    Pfeil: [["path", { d: "M3 12 H19 M13 6 L19 12 L13 18" }]],
    Moewe: [["path", { d: "M2 11 Q7 5 12 12 Q17 5 22 11" }]],
    Gebaeude: [["path", { d: "M5 20 V11 L12 5 L19 11 V20 Z M10 20 V15 H14 V20" }]],
    Waage: [["path", { d: "M12 4 V20 M7 20 H17 M4 7 H20 M4 7 L2 13 H6 Z M20 7 L18 13 H22 Z" }]],
    Joker: [["path", { d: "M4 19 L6 7 L12 13 L18 7 L20 19 Z" }], ["circle", { cx: 6, cy: 5, r: 1.8, class: "fill" }],
      ["circle", { cx: 18, cy: 5, r: 1.8, class: "fill" }]],
    Stern: [["path", { class: "fill", d: "M12 3 L14.6 9.2 L21 9.6 L16 13.8 L17.6 20.4 L12 16.8 L6.4 20.4 L8 13.8 L3 9.6 L9.4 9.2 Z" }]],
  };

  const seatColour = (seat) => SEAT_COLOURS[seat % SEAT_COLOURS.length];
  const symbolName = (symbol) => t(SYMBOL_NAMES[symbol] || symbol);

  function playerOf(pub, seat) {
    return (pub.players || []).find((player) => player.seat === seat) || {};
  }

  function buildingsText(buildings) {
    const counts = new Map();
    for (const building of buildings) counts.set(building, (counts.get(building) || 0) + 1);
    return [...counts].map(([kind, count]) => `${count} ${t(kind.replace(/_/g, " "))}`).join(", ") || t("none");
  }

  // ---------------------------------------------------------------- dice

  function dieIcon(face, state, index) {
    const name = face === null ? t("not rolled yet") : symbolName(face);
    const words = state ? t("die {number}: {symbol} ({state})", { number: index + 1, symbol: name, state: t(state) })
      : t("die {number}: {symbol}", { number: index + 1, symbol: name });
    const drawing = face === null ? [svg("text", { x: 12, y: 17, class: "fill unknown" }, "?")]
      : (SYMBOL_ICONS[face] || []).map(([tag, attributes]) => svg(tag, attributes));
    return svg("svg", { class: `die${state ? ` ${state.replace(/ /g, "-")}` : ""}`, viewBox: "-3 -3 30 30",
      "data-target": `die:${index}`, "data-symbol": face === null ? "" : face, role: "img", "aria-label": words },
    svg("title", {}, words), svg("rect", { class: "face", x: -2, y: -2, width: 28, height: 28, rx: 5 }),
    svg("g", { class: "symbol" }, drawing));
  }

  function dice(turn) {
    return el("div", { class: "dice", id: "dice-faces" }, turn.dice.map((face, index) =>
      dieIcon(face, turn.used[index] ? "used" : turn.set_aside[index] ? "set aside" : null, index)));
  }

  // ---------------------------------------------------------------- the map

  function ship(x, y, seat, view, where) {
    const words = t("{name}'s ship at {field}", { name: nameOf(view, seat), field: where });
    return svg("path", { class: "ship", fill: seatColour(seat), "data-seat": seat,
      d: `M${x - 3.2},${y - 0.6} H${x + 3.2} L${x + 2},${y + 1.6} H${x - 2} Z M${x},${y - 0.6} V${y - 4} L${x + 2.2},${y - 1.2} H${x} Z` },
    svg("title", {}, words));
  }

  function guards(x, y, seat, count, view, where) {
    const words = t("{name}: {count} guard(s) at {field}", { name: nameOf(view, seat), count, field: where });
    return svg("g", { class: "guards", "data-seat": seat }, svg("title", {}, words),
      svg("circle", { cx: x, cy: y, r: 2.6, fill: seatColour(seat) }),
      svg("text", { x, y: y + 1.1, class: "count" }, count));
  }

  function settlement(s, [x, y], view) {
    const owner = s.owner === null || s.owner === undefined ? null : s.owner;
    const words = s.out_of_play ? t("{name}: out of play", { name: s.name })
      : t("{name}: value {value}, owner {owner}, {guards} guard(s), buildings: {buildings}", { name: s.name,
        value: s.value, owner: owner === null ? t("nobody") : nameOf(view, owner), guards: s.guards,
        buildings: buildingsText(s.buildings) });
    const blocks = s.buildings.map((building, index) => svg("rect", { class: `building ${building}`,
      x: x - 7 + (index % 7) * 2.1, y: y + 1.2 + Math.floor(index / 7) * 2.1, width: 1.8, height: 1.8 }));
    return svg("g", { class: `settlement${s.out_of_play ? " out" : ""}`, "data-target": `field:${s.name}`,
      "data-field": s.name, role: "img", "aria-label": words },
    svg("title", {}, words),
    svg("rect", { class: "hit", x: x - 9, y: y - 5, width: 18, height: 10, rx: 3,
      stroke: owner === null ? null : seatColour(owner) }),
    svg("text", { class: "name", x, y: y - 0.8 }, s.name),
    s.out_of_play ? svg("circle", { class: "coin", cx: x + 7, cy: y - 4, r: 1.8 }) : null,
    blocks,
    s.value ? svg("text", { class: "value", x: x + 7.6, y: y + 3.4 }, s.value) : null,
    s.guards && owner !== null ? guards(x - 9, y - 4, owner, s.guards, view, s.name) : null,
    s.ship !== null && s.ship !== undefined ? ship(x + 9, y + 4.6, s.ship, view, s.name) : null);
  }

  function seaField(name, [x, y], owners, start, view) {
    const words = owners.length
      ? t("sea field {name}: ships of {names}", { name, names: owners.map((seat) => nameOf(view, seat)).join(", ") })
      : t("sea field {name}", { name });
    return svg("g", { class: `sea${start ? " start" : ""}`, "data-target": `field:${name}`, "data-field": name,
      role: "img", "aria-label": words },
    svg("title", {}, words), svg("circle", { class: "hit", cx: x, cy: y, r: 6.5 }),
    svg("text", { class: "name", x, y: y - 3 }, name),
    owners.map((seat, index) => ship(x - (owners.length - 1) * 2.4 + index * 4.8, y + 2.2, seat, view, name)));
  }

  function landPoint(name, [x, y], held, view) {
    const words = held ? t("{name}: {count} guard(s) of {owner}", { name, count: held.guards, owner: nameOf(view, held.owner) })
      : t("path field {name}", { name });
    return svg("g", { class: "land-point", "data-target": `field:${name}`, "data-field": name, role: "img",
      "aria-label": words },
    svg("title", {}, words), svg("circle", { class: "hit", cx: x, cy: y, r: 3.2 }), svg("circle", { class: "dot", cx: x, cy: y, r: 1.3 }),
    held ? guards(x + 2.6, y - 2.6, held.owner, held.guards, view, name) : null);
  }

  function mapPicture(view, pub) {
    const map = pub.map;
    const place = (name) => map.layout[name] || [0, 0];
    const joins = (pairs, kind) => pairs.map(([a, b]) => {
      const [[x1, y1], [x2, y2]] = [place(a), place(b)];
      return svg("line", { class: kind, x1, y1, x2, y2 });
    });
    const settlements = new Map((pub.settlements || []).map((s) => [s.name, s]));
    // The sheet of [map.layout] is 100 x 85; a settlement's field reaches 9 past its place.
    const [left, top, width, height] = [-3, -1, 106, 90];
    return svg("svg", { class: "board-svg", id: "minos-map", viewBox: `${left} ${top} ${width} ${height}`, role: "group",
      "aria-label": t("The map of Minos") },
    svg("rect", { class: "water", x: left, y: top, width, height, rx: 3 }),
    joins(map.sea_borders, "sea-border"), joins(map.harbours, "harbour"), joins(map.land_paths, "land-path"),
    map.sea.map((name) => seaField(name, place(name), (pub.sea || {})[name] || [], name === map.start, view)),
    map.land_points.map((name) => landPoint(name, place(name), (pub.land || {})[name], view)),
    map.settlements.map((name) => settlement(settlements.get(name) || { name, buildings: [], out_of_play: true }, place(name), view)));
  }

  // ---------------------------------------------------------------- what a move touches

  function targets(action) {
    const keys = [];
    if (action.die !== undefined) keys.push(`die:${action.die}`);
    for (const key of ["settlement", "origin", "target"]) if (action[key]) keys.push(`field:${action[key]}`);
    return keys;
  }

  function targetName(key, view) {
    const [kind, name] = [key.slice(0, key.indexOf(":")), key.slice(key.indexOf(":") + 1)];
    if (kind === "die") return t("die {number}", { number: Number(name) + 1 });
    const map = (view && view.public && view.public.map) || { sea: [], land_points: [] };
    if (map.sea.includes(name)) return t("sea field {name}", { name });
    if (map.land_points.includes(name)) return t("path field {name}", { name });
    return name;
  }

  registerGame("minos", {
    outSeats(view, pub) {
      return (pub.players || []).filter((player) => player.out_of_the_game).map((player) => player.seat);
    },
    seatColour(view, pub, seat) { return seatColour(seat); },
    seatFacts(view, pub, seat) {
      const p = playerOf(pub, seat);
      const facts = [chip(t("value"), p.value), chip(t("track"), p.track), chip(t("rings"), p.rings),
        chip(t("ships"), p.ships_on_board), chip(t("guards"), p.guards_on_board)];
      if (p.cash !== null && p.cash !== undefined) facts.push(chip(t("cash"), p.cash));
      if (p.out_of_the_game) facts.push(chip(t("out of the game"), "✘"));
      return facts;
    },
    banner(view, pub) {
      if (!pub.turn) return null;
      const turn = pub.turn;
      return el("div", { class: "banner", id: "dice" },
        el("h3", {}, t("{name}'s dice (roll {rolls})", { name: nameOf(view, turn.seat), rolls: turn.rolls })),
        dice(turn),
        pub.conflict ? el("div", {}, el("strong", {}, t("Conflict: ")), valueNode(pub.conflict)) : null);
    },
    targets,
    targetName,
    board(view, pub) {
      return [
        pub.map ? el("div", { class: "board-box" }, mapPicture(view, pub)) : null,
        el("p", { class: "quiet" }, t("Ships and guards in their player's colour · numbers: a settlement's value · small squares: buildings · gold disc: out of play")),
        el("div", { class: "facts" }, chip(t("rings in supply"), pub.ring_supply),
          Object.entries(pub.building_supply || {}).map(([kind, count]) => chip(t(kind.replace(/_/g, " ")), count))),
      ];
    },
  });
})();
