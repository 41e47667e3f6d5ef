"""The games' rule refusals read German on a German page: every reason a raise writes has one template.

Each `RuleError(rule, message)` in companion/games is read with ast: its message (an f-string or a plain
string) is rendered with sample values for what it formats, "seat N" is put as a name as the page does
(withNames), and exactly one of game_texts' templates must match it, the way Companion.gameText
matches. A reason worded in a helper (`problem = self._claim_problem()`, `RuleError(*wrong)`) is
followed to the strings the helper returns. A refusal added or reworded without its template fails here.
"""

from __future__ import annotations

import ast
import itertools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.games.minoa import BOARD
from companion.web.game_refusals import REFUSALS
from companion.web.game_texts import TEMPLATES, WORDS

from .browser_fixtures import PHONE, HostClient, TableServer, browser, table
from .test_game_texts import PATTERNS
from .test_i18n import catalog

__all__ = ["browser", "table"]  # fixtures

GAMES = Path(__file__).resolve().parents[2] / "companion" / "games"

# A formatted value's samples by its source text; a value not listed is a number (7). A name used with
# different values in two games is keyed "file:name".
SAMPLES: dict[str, tuple[str, ...]] = {
    "colour_name(self.current)": ("red", "seat 4"),
    "colour_of(action.by)": ("red",),
    "colour_of(seat)": ("blue",),
    "action.design": ("treasure corridor",),
    "', '.join(DESIGN_INDEX)": ("cell, corridor, bend",),
    "cell": ("(2, -1)",),
    "origin": ("(0, 3)",),
    "conflict.py:origin": ("Malia",),
    "action.kind": ("flip",),
    "waiting": ("seat 1 to act",),
    "acting.waiting_for": ("seat 1 to turn over a piece or challenge",),
    "who": ("the table", "seat 2"),
    "mine": ("12, 40",),
    "state.py:where": ("on row 2", "in the box", "played by seat 1 this round"),
    "minotaurus.py:where": ("held by a player", "face down at position 4", "face up at position 9"),
    "turn.py:where": (
        "each Pfeil die used this turn has its Joker already",
        "the Pfeil combination has its Stern already",
    ),
    "held": ("a black stick", "a red piece"),
    "BOARD.line_place(line)": ("edge line 5 (top side, 2 of 6 clockwise)",),
    "', '.join(map(str, enclosed))": ("3, 4",),
    "needs": ("an edge", "an edge line holding a piece"),
    "action.settlement": ("Knossos",),
    "', '.join(FACES)": ("Pfeil, Möwe, Gebäude",),
    "action.symbol": ("Kreis",),
    "', '.join(ACTION_SYMBOLS)": ("Pfeil, Möwe",),
    "symbol_name(symbol)": ("Möwe",),
    "face": ("Joker", "Stern"),
    "piece.label()": ("red 3 left",),
    "self.seen[pos].label()": ("blue 2 right",),
    "', '.join(COLOURS)": ("red, blue, yellow",),
    "', '.join(map(str, self.values))": ("1, 2, 3",),
    "self._exchange_values()": ("[2, 3]",),
    "', '.join(map(str, self.keeping))": ("33, 41",),
    "whose": ("the Minotaur tile", "the tile at (1, 2) is blue's"),
    "colour_name(seat)": ("green",),
    "minotaurus.py:mine": ("(2, 3)",),
    "theirs": ("(4, 4)",),
    "colour": ("yellow",),
    "a.colour": ("red",),
    "b.colour": ("blue",),
    "a.horn": ("left",),
    "active": ("0, 2, 3",),
    "building": ("trading_house",),
    "settlement": ("Knossos",),
    "', '.join(BUILDINGS)": ("house, harbour",),
    "conflict.py:target": ("Phaistos",),
    "piece": ("ship", "guard"),
    "conflict.py:where": ("sea fields sharing a border, or a harbour", "land fields joined by a line"),
    "SHIP": ("ship",),
    "GUARD": ("guard",),
    "self.name": ("variant",),
    "self.valid_range()": ("one of 'standard', 'simplified'", "a whole number from 3 to 5"),
    "name": ("position",),
}


def formatted(node: ast.FormattedValue, where: str) -> tuple[str, ...]:
    """What a formatted value may read: an `a if c else b` of two strings both, others their samples."""
    value = node.value
    if isinstance(value, ast.IfExp) and all(isinstance(b, ast.Constant) for b in (value.body, value.orelse)):
        return tuple(str(b.value) for b in (value.body, value.orelse) if isinstance(b, ast.Constant))
    source = ast.unparse(value)
    samples = SAMPLES.get(f"{where}:{source}", SAMPLES.get(source, ("7",)))
    return tuple(repr(sample) if node.conversion == ord("r") else sample for sample in samples)


def renderings(message: ast.expr, where: str) -> Iterator[str] | None:
    """Every text `message` may make with the samples; None when it is not a string written in place."""
    if isinstance(message, ast.Constant) and isinstance(message.value, str):
        return iter([message.value])
    if not isinstance(message, ast.JoinedStr):
        return None
    parts = [
        (str(part.value),) if isinstance(part, ast.Constant) else formatted(part, where)
        for part in message.values
        if isinstance(part, ast.Constant | ast.FormattedValue)
    ]
    return ("".join(chosen) for chosen in itertools.product(*parts))


Place = tuple[Path, ast.FunctionDef]


def functions(path: Path, tree: ast.Module) -> list[Place]:
    return [(path, node) for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)]


def function_named(name: str, caller: Path, defined: list[Place]) -> Place:
    """The function `name` that a refusal's words come from: the caller's file's own, else the only one."""
    found = [place for place in defined if place[1].name == name]
    here = [place for place in found if place[0] == caller]
    assert len(here or found) == 1, f"{name}: {len(here or found)} functions word this refusal"
    return (here or found)[0]


def messages_of(
    node: ast.expr, scope: Place, defined: list[Place], depth: int = 0
) -> Iterator[tuple[Path, ast.expr]]:
    """The strings written in place that `node` may carry, with their file: a variable's assignments in
    its function, a call's returned strings (a returned (rule, reason) pair gives its reason), a few deep."""
    if depth > 4 or (isinstance(node, ast.Constant) and node.value is None):
        return
    if isinstance(node, ast.Constant | ast.JoinedStr):
        yield scope[0], node
    elif isinstance(node, ast.Tuple) and len(node.elts) == 2:
        yield from messages_of(node.elts[1], scope, defined, depth + 1)
    elif isinstance(node, ast.Name):
        for assigned in ast.walk(scope[1]):
            targets = assigned.targets if isinstance(assigned, ast.Assign) else []
            if any(isinstance(target, ast.Name) and target.id == node.id for target in targets):
                assert isinstance(assigned, ast.Assign)
                yield from messages_of(assigned.value, scope, defined, depth + 1)
    elif isinstance(node, ast.Call):
        called = function_named(getattr(node.func, "id", getattr(node.func, "attr", "")), scope[0], defined)
        for returned in ast.walk(called[1]):
            if isinstance(returned, ast.Return) and returned.value is not None:
                yield from messages_of(returned.value, called, defined, depth + 1)
    else:
        raise AssertionError(f"{ast.unparse(node)}: a refusal's words this test cannot follow")


REFUSED_BY = {"RuleError": 1, "SetupError": 0, "ActionFormatError": 0}
"""The games' errors a host meets, and which argument is the reason."""


def refusal_messages() -> Iterator[tuple[str, str]]:
    """(file:line, a text the refusal may read) for every RuleError, SetupError, ActionFormatError raised."""
    paths = sorted(GAMES.rglob("*.py"))
    defined = [
        place for path in paths for place in functions(path, ast.parse(path.read_text(encoding="utf-8")))
    ]
    raised: set[tuple[Path, int]] = set()  # a nested function's raise is walked from its outer one too
    for path, function in defined:
        for node in ast.walk(function):
            error = getattr(node.func, "id", None) if isinstance(node, ast.Call) else None
            if not isinstance(node, ast.Call) or error not in REFUSED_BY:
                continue
            if (path, node.lineno) in raised:
                continue
            raised.add((path, node.lineno))
            given = (
                node.args[0].value if isinstance(node.args[0], ast.Starred) else node.args[REFUSED_BY[error]]
            )
            for where, message in messages_of(given, (path, function), defined):
                for text in renderings(message, where.name) or ():
                    yield f"{where.relative_to(GAMES)}:{message.lineno}", text


def with_names(text: str) -> str:
    """What the page matches: app.js's withNames puts a player's name for "seat N"."""
    return re.sub(r"\bseat (\d+)", lambda seat: f"Player{seat.group(1)}", text)


def matching(text: str) -> list[str]:
    return [template for template in TEMPLATES if PATTERNS[template].match(text)]


MESSAGES = list(refusal_messages())


def test_the_games_refusals_are_all_read() -> None:
    places = {place for place, _ in MESSAGES}
    assert len(places) >= 130, sorted(places)


@pytest.mark.parametrize(("place", "text"), MESSAGES, ids=[f"{p}:{t[:30]}" for p, t in MESSAGES])
def test_every_refusal_matches_one_template(place: str, text: str) -> None:
    found = matching(with_names(text))
    # gameText takes the first match; REFUSALS come first, as a reason may end in a waiting sentence
    assert found and found[0] in REFUSALS, f"{place}: {text!r} matches {found or 'no template'}"
    assert len(set(found) & set(REFUSALS)) == 1, f"{place}: {text!r} matches {found} (game_texts.REFUSALS)"


def test_every_refusal_template_is_met_by_a_raise() -> None:
    met = {template for _, text in MESSAGES for template in matching(with_names(text))}
    assert not set(REFUSALS) - met, sorted(set(REFUSALS) - met)


def test_every_refusal_template_has_german_with_its_placeholders() -> None:
    german = catalog("de")
    for msgid in (*REFUSALS, *WORDS):
        assert german.get(msgid) and german[msgid] != msgid, msgid
        names = sorted(re.findall(r"\{(\w+)\}", msgid))
        assert sorted(re.findall(r"\{(\w+)\}", german[msgid])) == names, msgid


def game_text(text: str, names: list[str], german: dict[str, str]) -> str:
    """Companion.gameText after withNames, in Python: the first template matching gives the German,
    each value looked up in the catalog too."""
    named = re.sub(r"\bseat (\d+)", lambda seat: names[int(seat.group(1))], text)
    for template in TEMPLATES:
        found = PATTERNS[template].match(named)
        if found:
            values = [german.get(value) or value for value in found.groups()]
            keys = re.findall(r"\{(\w+)\}", template)
            return (german.get(template) or template).format(**dict(zip(keys, values, strict=True)))
    return named


def reason(client: FlaskClient, action: dict[str, object]) -> str:
    """The English reason of a refused action, without the frame's " (rule: ...)"."""
    response = client.post("/api/actions", json={"action": action})
    assert response.status_code == 409 or response.status_code == 400, response.json
    assert response.json is not None
    error, rule = str(response.json["error"]), str(response.json["rule"])
    assert error.endswith(f" (rule: {rule})"), error
    return error.removesuffix(f" (rule: {rule})")


def start(client: FlaskClient, game: str, names: list[str]) -> None:
    body = {"game": game, "options": {"players": len(names)}, "names": names}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.json


def accepted(client: FlaskClient, action: dict[str, object]) -> None:
    response = client.post("/api/actions", json={"action": action})
    assert response.status_code < 300, response.json


def test_a_stick_on_an_occupied_line_reads_german(client: FlaskClient) -> None:
    names = ["Ann", "Bo"]
    start(client, "minoa", names)
    inside = next(line for line in range(len(BOARD.lines)) if not BOARD.is_edge[line])
    accepted(client, {"kind": "stick", "by": 0, "line": inside})
    english = reason(client, {"kind": "stick", "by": 1, "line": inside})
    assert english == f"line {inside} already holds a black stick, which stays put"
    german = game_text(english, names, catalog("de"))
    assert german == f"auf Linie {inside} liegt schon ein schwarzes Stäbchen, und es bleibt liegen"


def test_a_piece_revealed_twice_and_a_wrong_turn_read_german(client: FlaskClient) -> None:
    names = ["Ann", "Bo", "Cy"]
    start(client, "minotaurus", names)
    piece = {"colour": "green", "value": 3, "horn": "right"}
    accepted(client, {"kind": "flip", "by": 0, "position": 7})
    accepted(client, {"kind": "reveal", "by": -1, "position": 7, **piece})
    accepted(client, {"kind": "flip", "by": 0, "position": 2})
    english = reason(client, {"kind": "reveal", "by": -1, "position": 2, **piece})
    assert english == "green 3 right is already face up at position 7"
    german = catalog("de")
    assert game_text(english, names, german) == "Grün 3 rechts liegt schon offen an Position 7"
    english = reason(client, {"kind": "flip", "by": 2, "position": 4})
    assert english.startswith("it is not seat 2's turn: waiting for ")
    assert game_text(english, names, german).startswith("Cy ist nicht am Zug: es wird gewartet auf: ")


def refused(host: HostClient, action: dict[str, Any]) -> str:
    """The English reason of an action the table refuses, asked as the host's page asks."""
    headers = {"Cookie": host.cookie, "X-CSRF-Token": host.csrf}
    status, reply, _ = host._request("POST", "/api/actions", {"action": action}, headers)
    assert status == 409, reply
    return str(reply["error"]).removesuffix(f" (rule: {reply['rule']})")


def named(text: str) -> str:
    """withNames for the game of this test: Ann and Bo."""
    return text.replace("seat 0", "Ann").replace("seat 1", "Bo")


def test_a_german_page_shows_real_refusals_in_german(browser: Any, table: TableServer) -> None:
    host = HostClient(table)
    host.post("/api/games", {"game": "minoa", "options": {"players": 2}, "names": ["Ann", "Bo"]})
    inside = next(line for line in range(len(BOARD.lines)) if not BOARD.is_edge[line])
    host.post("/api/actions", {"action": {"kind": "stick", "by": 0, "line": inside}})
    occupied = refused(host, {"kind": "stick", "by": 1, "line": inside})
    out_of_turn = refused(host, {"kind": "stick", "by": 0, "line": inside + 1})
    assert out_of_turn.startswith("it is not seat 0's turn: ")
    context = browser.new_context(**PHONE, locale="de-DE")
    try:
        page = context.new_page()
        page.goto(f"{table.url}/")
        shown = page.evaluate(
            "(texts) => texts.map((text) => Companion.gameText(text))",
            [occupied, named(out_of_turn)],
        )
    finally:
        context.close()
    german = catalog("de")
    assert shown[0] == german["line {line} already holds a black stick, which stays put"].format(line=inside)
    # The waiting sentence quoted in the refusal is a game sentence of its own: German too.
    waiting = game_text(named(out_of_turn).split(": waiting for ", 1)[1], ["Ann", "Bo"], german)
    assert "black stick" not in waiting, waiting
    assert shown[1] == german["it is not {who}'s turn: waiting for {waiting}"].format(
        who="Ann", waiting=waiting
    )
