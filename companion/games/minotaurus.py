"""Minotaurus (Michael Sohre): collect horn pairs, settle challenges by ring toss.

Readings of unclear passages are in docs/rulings.md; the data (colours,
values, setup table) is in seeds/minotaurus.toml.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from typing import Any, ClassVar, NamedTuple, Self

from companion.games import register
from companion.games.base import (
    CHANCE,
    N_,
    NOBODY,
    Action,
    Game,
    JsonDict,
    OptionSpec,
    PhasedState,
    RuleError,
    SetupError,
    ToAct,
)
from companion.games.minotaurus_options import minotaurus_options
from companion.seeddata import load_seed

_SEED = load_seed("minotaurus")
COLOURS: tuple[str, ...] = tuple(c["name"] for c in _SEED["colours"])
HORNS = ("left", "right")
SETUPS: dict[int, JsonDict] = {s["players"]: s for s in _SEED["setup"]}
TIE_BREAK_TOSSES: int = _SEED["tie_break"]["tosses_each"]


class Piece(NamedTuple):
    """A tuple, so that the many set look-ups of a reveal hash fast."""

    colour: str
    value: int
    horn: str

    def label(self) -> str:
        return f"{self.colour} {self.value} {self.horn}"

    def to_json(self) -> JsonDict:
        return {"colour": self.colour, "value": self.value, "horn": self.horn}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Piece:
        return Piece(str(data["colour"]), int(data["value"]), str(data["horn"]))


# ---------------------------------------------------------------- actions


@dataclasses.dataclass(frozen=True)
class Flip(Action):
    kind: ClassVar[str] = "flip"
    position: int

    def label(self) -> str:
        return f"turn over position {self.position}"


@dataclasses.dataclass(frozen=True)
class Reveal(Action):
    """The table shows what the flipped piece is (camera, host or simulator)."""

    kind: ClassVar[str] = "reveal"
    fades: ClassVar[bool] = True  # returned face down, it is the players' memory, not the scoreboard's
    position: int
    colour: str
    value: int
    horn: str

    @property
    def piece(self) -> Piece:
        return Piece(self.colour, self.value, self.horn)

    def label(self) -> str:
        return f"position {self.position} shows {self.piece.label()}"


@dataclasses.dataclass(frozen=True)
class Claim(Action):
    kind: ClassVar[str] = "claim"

    def label(self) -> str:
        return "claim the pair"


@dataclasses.dataclass(frozen=True)
class ReturnFaceDown(Action):
    kind: ClassVar[str] = "return"

    def label(self) -> str:
        return "return both face down"


@dataclasses.dataclass(frozen=True)
class Challenge(Action):
    kind: ClassVar[str] = "challenge"
    opponent: int
    colour: str
    value: int

    def label(self) -> str:
        return f"challenge seat {self.opponent} for {self.colour} {self.value}"


@dataclasses.dataclass(frozen=True)
class Toss(Action):
    """A toss verdict: did `player`'s ring land over a horn?"""

    kind: ClassVar[str] = "toss"
    player: int
    success: bool

    def label(self) -> str:
        return f"seat {self.player}'s toss {'lands on a horn' if self.success else 'misses'}"


@dataclasses.dataclass(frozen=True)
class TakePiece(Action):
    """The challenged player, alone successful, takes one of the challenger's pieces."""

    kind: ClassVar[str] = "take"
    value: int

    def label(self) -> str:
        return f"take the challenger's {self.value} in exchange"


@dataclasses.dataclass(frozen=True)
class Decline(Action):
    kind: ClassVar[str] = "decline"

    def label(self) -> str:
        return "decline the exchange"


@dataclasses.dataclass(frozen=True)
class Pass(Action):
    kind: ClassVar[str] = "pass"

    def label(self) -> str:
        return "pass (nothing left to do)"


# ---------------------------------------------------------------- state


@dataclasses.dataclass
class ChallengeInProgress:
    challenger: int
    opponent: int
    colour: str
    value: int
    tosses: list[bool]

    def tosser(self) -> int:
        return self.challenger if not self.tosses else self.opponent


@dataclasses.dataclass
class TieBreak:
    order: list[int]
    hits: dict[int, int]
    rounds_done: int = 0
    index: int = 0
    sudden_death: bool = False


@functools.cache
def _pieces_in_play(values: tuple[int, ...]) -> tuple[Piece, ...]:
    return tuple(Piece(c, v, h) for c in COLOURS for v in values for h in HORNS)


class MinotaurusState(PhasedState):
    game: ClassVar[Game]

    def __init__(self, options: Mapping[str, Any]) -> None:
        self.options = dict(options)
        self.num_players: int = options["players"]
        setup = SETUPS[self.num_players]
        self.values: tuple[int, ...] = tuple(setup["values"])
        self.rows: int = setup["rows"]
        self.columns: int = setup["columns"]
        size = len(COLOURS) * len(self.values) * 2
        self.on_table: list[bool] = [True] * size
        self.seen: dict[int, Piece] = {}  # face-down pieces everyone has seen (memory, not public)
        self.flipped: list[tuple[int, Piece | None]] = []
        self.holdings: list[dict[str, list[int]]] = [{} for _ in range(self.num_players)]
        self.current: int = options["first_player"]
        self.phase = "turn"
        self.challenge: ChallengeInProgress | None = None
        self.tie_break: TieBreak | None = None

    def copy(self) -> Self:
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.on_table = list(self.on_table)
        new.seen = dict(self.seen)
        new.flipped = list(self.flipped)
        new.holdings = [{c: list(p) for c, p in h.items()} for h in self.holdings]
        new.challenge = (
            dataclasses.replace(self.challenge, tosses=list(self.challenge.tosses))
            if self.challenge
            else None
        )
        new.tie_break = (
            dataclasses.replace(
                self.tie_break, order=list(self.tie_break.order), hits=dict(self.tie_break.hits)
            )
            if self.tie_break
            else None
        )
        return new

    # ------------------------------------------------------------ knowledge

    def pieces_in_play(self) -> tuple[Piece, ...]:
        return _pieces_in_play(self.values)

    def held_pieces(self) -> list[Piece]:
        return [
            Piece(colour, value, horn)
            for holding in self.holdings
            for colour, pair in holding.items()
            for horn, value in zip(HORNS, pair, strict=True)
        ]

    def known_pieces(self) -> dict[Piece, str]:
        """Every piece whose place the table has shown, with that place in words."""
        known = {p: "held by a player" for p in self.held_pieces()}
        known.update({p: f"face down at position {pos}" for pos, p in self.seen.items()})
        known.update({p: f"face up at position {pos}" for pos, p in self.flipped if p is not None})
        return known

    def possible_reveals(self, position: int) -> list[Piece]:
        if position in self.seen:
            return [self.seen[position]]
        known = self.known_pieces()
        return [p for p in self.pieces_in_play() if p not in known]

    def face_down_positions(self) -> list[int]:
        up = {pos for pos, _ in self.flipped}
        return [pos for pos, present in enumerate(self.on_table) if present and pos not in up]

    def pair_values(self, seat: int, colour: str) -> list[int] | None:
        return self.holdings[seat].get(colour)

    def is_unresolved(self, seat: int, colour: str) -> bool:
        pair = self.pair_values(seat, colour)
        return pair is not None and pair[0] != pair[1]

    def challenge_targets(self, seat: int) -> list[Challenge]:
        simplified = self.options["variant"] == "simplified"
        targets = []
        for colour, mine in self.holdings[seat].items():
            if mine[0] == mine[1]:
                continue
            for other in range(self.num_players):
                theirs = self.pair_values(other, colour)
                if other == seat or theirs is None or theirs[0] == theirs[1]:
                    continue
                if not set(mine) & set(theirs):
                    continue
                for value in theirs:
                    if not simplified or value in mine:
                        targets.append(Challenge(seat, other, colour, value))
        return targets

    # ------------------------------------------------------------ the interface

    def to_act(self) -> ToAct:
        if self.phase == "over":
            return NOBODY
        if self.phase == "reveal":
            return ToAct((CHANCE,), f"the table to show the piece at position {self.flipped[-1][0]}")
        if self.phase == "toss":
            assert self.challenge is not None
            return ToAct((CHANCE,), f"the toss of seat {self.challenge.tosser()}")
        if self.phase == "tiebreak":
            assert self.tie_break is not None
            return ToAct(
                (CHANCE,), f"the tie-break toss of seat {self.tie_break.order[self.tie_break.index]}"
            )
        if self.phase == "exchange":
            assert self.challenge is not None
            return ToAct(
                (self.challenge.opponent,), f"seat {self.challenge.opponent} to take a piece or decline"
            )
        words = {
            "turn": "to turn over a piece or challenge",
            "second": "to turn over a second piece",
            "decide": "to claim the pair or return it",
        }
        return ToAct((self.current,), f"seat {self.current} {words[self.phase]}")

    def legal_actions(self) -> list[Action]:
        me = self.current
        if self.phase == "turn":
            flips: list[Action] = [Flip(me, p) for p in self.face_down_positions()]
            challenges: list[Action] = list(self.challenge_targets(me))
            return flips + challenges if flips or challenges else [Pass(me)]
        if self.phase == "second":
            return [Flip(me, p) for p in self.face_down_positions()]
        if self.phase == "reveal":
            pos = self.flipped[-1][0]
            return [Reveal(CHANCE, pos, p.colour, p.value, p.horn) for p in self.possible_reveals(pos)]
        if self.phase == "decide":
            actions: list[Action] = [ReturnFaceDown(me)]
            if self._claim_problem() is None:
                actions.insert(0, Claim(me))
            return actions
        if self.phase == "toss":
            assert self.challenge is not None
            return [Toss(CHANCE, self.challenge.tosser(), ok) for ok in (True, False)]
        if self.phase == "tiebreak":
            assert self.tie_break is not None
            return [Toss(CHANCE, self.tie_break.order[self.tie_break.index], ok) for ok in (True, False)]
        if self.phase == "exchange":
            assert self.challenge is not None
            seat = self.challenge.opponent
            return [*(TakePiece(seat, v) for v in self._exchange_values()), Decline(seat)]
        return []

    # ------------------------------------------------------------ turning pieces over

    def _flip(self, action: Flip) -> None:
        pos = action.position
        if not 0 <= pos < len(self.on_table):
            raise RuleError(
                "the matrix", f"there is no position {pos}; positions are 0 to {len(self.on_table) - 1}"
            )
        if not self.on_table[pos]:
            raise RuleError("forming a match", f"position {pos} is empty: its piece has been taken")
        if any(p == pos for p, _ in self.flipped):
            raise RuleError(
                "forming a match", f"position {pos} is already face up: reveal two different pieces"
            )
        self.flipped.append((pos, None))
        self.phase = "reveal"

    def _reveal(self, action: Reveal) -> None:
        pos, piece = self.flipped[-1][0], action.piece
        if action.position != pos:
            raise RuleError(
                "forming a match", f"the piece turned over is at position {pos}, not {action.position}"
            )
        if piece.colour not in COLOURS or piece.value not in self.values or piece.horn not in HORNS:
            raise RuleError(
                "preparation",
                f"{piece.label()} is not in play with {self.num_players} players "
                f"(colours {', '.join(COLOURS)}; values {', '.join(map(str, self.values))}; "
                "left or right horn)",
            )
        if pos in self.seen and self.seen[pos] != piece:
            raise RuleError(
                "returned pieces keep their place",
                f"position {pos} was returned face down as {self.seen[pos].label()}, not {piece.label()}",
            )
        where = self.known_pieces().get(piece)
        if where is not None and self.seen.get(pos) != piece:
            raise RuleError("each piece exists once", f"{piece.label()} is already {where}")
        self.flipped[-1] = (pos, piece)
        self.phase = "second" if len(self.flipped) == 1 else "decide"

    def _claim_problem(self) -> str | None:
        (_, a), (_, b) = self.flipped
        assert a is not None and b is not None
        if a.colour != b.colour:
            return f"a pair is one colour, but these are {a.colour} and {b.colour}"
        if a.horn == b.horn:
            return f"a pair is one left and one right horn, but both are {a.horn} horns"
        if a.colour in self.holdings[self.current]:
            return f"seat {self.current} already holds a {a.colour} pair (at most one pair per colour)"
        return None

    def _claim(self, _: Claim) -> None:
        problem = self._claim_problem()
        if problem is not None:
            raise RuleError("forming a match", problem)
        pieces = {p.horn: p for _, p in self.flipped if p is not None}
        self.holdings[self.current][pieces["left"].colour] = [pieces["left"].value, pieces["right"].value]
        for pos, _piece in self.flipped:
            self.on_table[pos] = False
            self.seen.pop(pos, None)
        self._end_turn()

    def _return(self, _: ReturnFaceDown) -> None:
        for pos, piece in self.flipped:
            assert piece is not None
            self.seen[pos] = piece
        self._end_turn()

    # ------------------------------------------------------------ challenges

    def _challenge(self, action: Challenge) -> None:
        if action not in self.challenge_targets(self.current):
            raise RuleError("issuing a challenge", self._why_no_challenge(action))
        self.challenge = ChallengeInProgress(self.current, action.opponent, action.colour, action.value, [])
        self.phase = "toss"

    def _why_no_challenge(self, action: Challenge) -> str:
        me, other, colour = self.current, action.opponent, action.colour
        if other == me or not 0 <= other < self.num_players:
            return f"seat {other} cannot be challenged by seat {me}"
        mine, theirs = self.pair_values(me, colour), self.pair_values(other, colour)
        if mine is None or theirs is None:
            return f"both players must hold a {colour} pair"
        if mine[0] == mine[1] or theirs[0] == theirs[1]:
            return f"a resolved {colour} pair cannot be changed"
        if not set(mine) & set(theirs):
            return f"the {colour} pairs {mine} and {theirs} share no value"
        if action.value not in theirs:
            return f"seat {other}'s {colour} pair holds {theirs}, not {action.value}"
        return f"in the simplified variant only a value the challenger holds may be contested ({mine})"

    def _exchange_values(self) -> list[int]:
        assert self.challenge is not None
        challenger = self.holdings[self.challenge.challenger][self.challenge.colour]
        opponent = self.holdings[self.challenge.opponent][self.challenge.colour]
        if self.options["variant"] == "simplified":
            return [v for v in challenger if v in opponent]
        return list(challenger)

    def _swap(self, a: int, b: int, colour: str, horn_index: int) -> None:
        pa, pb = self.holdings[a][colour], self.holdings[b][colour]
        pa[horn_index], pb[horn_index] = pb[horn_index], pa[horn_index]

    def _toss(self, action: Toss) -> None:
        challenge = self.challenge
        assert challenge is not None
        if action.player != challenge.tosser():
            raise RuleError(
                "issuing a challenge", f"seat {challenge.tosser()} tosses now (the challenger tosses first)"
            )
        challenge.tosses.append(action.success)
        if len(challenge.tosses) < 2:
            return
        challenger_won, opponent_won = challenge.tosses
        if challenger_won and not opponent_won:
            horn = self.holdings[challenge.opponent][challenge.colour].index(challenge.value)
            self._swap(challenge.challenger, challenge.opponent, challenge.colour, horn)
        elif opponent_won and not challenger_won:
            self.phase = "exchange"
            return
        self._end_turn()

    def _take(self, action: TakePiece) -> None:
        assert self.challenge is not None
        if action.value not in self._exchange_values():
            raise RuleError(
                "issuing a challenge",
                f"the challenged player may take one of {self._exchange_values()}, not {action.value}",
            )
        horn = self.holdings[self.challenge.challenger][self.challenge.colour].index(action.value)
        self._swap(self.challenge.challenger, self.challenge.opponent, self.challenge.colour, horn)
        self._end_turn()

    def _decline(self, _: Decline) -> None:
        self._end_turn()

    def _pass(self, _: Pass) -> None:
        if self.face_down_positions() or self.challenge_targets(self.current):
            raise RuleError(
                "playing the game", "a player may pass only when there is nothing to turn over or challenge"
            )
        self._end_turn()

    # ------------------------------------------------------------ the end

    def all_resolved(self) -> bool:
        return not any(self.on_table) and all(
            len(h) == len(COLOURS) and all(p[0] == p[1] for p in h.values()) for h in self.holdings
        )

    def _end_turn(self) -> None:
        self.flipped = []
        self.challenge = None
        last = self.current
        self.current = (self.current + 1) % self.num_players
        self.phase = "turn"
        if not self.all_resolved():
            return
        scores = self.scores()
        tied = [s for s in range(self.num_players) if scores[s] == max(scores)]
        if len(tied) == 1 or self.options["tie_break"] == "shared":
            self.phase = "over"
            return
        order = sorted(tied, key=lambda s: (s - last - 1) % self.num_players)
        self.tie_break = TieBreak(order, {s: 0 for s in order})
        self.phase = "tiebreak"

    def _tie_break_toss(self, action: Toss) -> None:
        tb = self.tie_break
        assert tb is not None
        if action.player != tb.order[tb.index]:
            raise RuleError("game end and scoring", f"seat {tb.order[tb.index]} tosses now (turns alternate)")
        tb.hits[action.player] += action.success
        tb.index += 1
        if tb.index < len(tb.order):
            return
        tb.index = 0
        tb.rounds_done += 1
        if not tb.sudden_death and tb.rounds_done < TIE_BREAK_TOSSES:
            return
        best = max(tb.hits[s] for s in tb.order)
        leaders = [s for s in tb.order if tb.hits[s] == best]
        if len(leaders) == 1 or self.options["tie_break"] == "shared_after_three":
            self.phase = "over"
            return
        tb.order = leaders
        tb.sudden_death = True

    def scores(self) -> list[int]:
        return [sum(p[0] for p in h.values() if p[0] == p[1]) for h in self.holdings]

    def ranking(self) -> list[list[int]]:
        scores = self.scores()
        hits = self.tie_break.hits if self.tie_break else {}
        keys = {s: (scores[s], hits.get(s, 0)) for s in range(self.num_players)}
        return [
            [s for s in range(self.num_players) if keys[s] == k]
            for k in sorted(set(keys.values()), reverse=True)
        ]

    def is_over(self) -> bool:
        return self.phase == "over"

    def component_counts(self) -> dict[str, int]:
        return {"pieces": sum(self.on_table) + 2 * sum(len(h) for h in self.holdings)}

    # ------------------------------------------------------------ views

    def public_view(self) -> JsonDict:
        face_up = {pos: piece for pos, piece in self.flipped}
        cells: list[Any] = []
        for pos, present in enumerate(self.on_table):
            if not present:
                cells.append("empty")
            elif pos in face_up:
                piece = face_up[pos]
                cells.append(piece.to_json() if piece is not None else "turning")
            else:
                cells.append("down")
        challenge = None
        if self.challenge is not None:
            c = self.challenge
            challenge = {
                "challenger": c.challenger,
                "opponent": c.opponent,
                "colour": c.colour,
                "value": c.value,
                "tosses": [
                    {"player": p, "success": ok}
                    for p, ok in zip((c.challenger, c.opponent), c.tosses, strict=False)
                ],
            }
        tie_break = None
        if self.tie_break is not None:
            tb = self.tie_break
            tie_break = {
                "order": tb.order,
                "hits": [[s, n] for s, n in tb.hits.items()],
                "sudden_death": tb.sudden_death,
            }
        return {
            "game": "minotaurus",
            "players": self.num_players,
            "variant": self.options["variant"],
            "phase": self.phase,
            "current": None if self.phase == "over" else self.current,
            "waiting_for": self.to_act().waiting_for,
            "colours": list(COLOURS),
            "values": list(self.values),
            "table": {
                "layout": self.options["layout"],
                "rows": self.rows,
                "columns": self.columns,
                "cells": cells,
            },
            "holdings": [
                {c: {"left": p[0], "right": p[1], "resolved": p[0] == p[1]} for c, p in h.items()}
                for h in self.holdings
            ],
            "challenge": challenge,
            "tie_break": tie_break,
            "scores": self.scores(),
            "over": self.is_over(),
            "ranking": self.ranking() if self.is_over() else None,
        }

    def to_json(self) -> JsonDict:
        return {
            "options": self.options,
            "on_table": self.on_table,
            "seen": [[pos, p.to_json()] for pos, p in sorted(self.seen.items())],
            "flipped": [[pos, p.to_json() if p else None] for pos, p in self.flipped],
            "holdings": self.holdings,
            "current": self.current,
            "phase": self.phase,
            "challenge": dataclasses.asdict(self.challenge) if self.challenge else None,
            "tie_break": (
                dataclasses.asdict(self.tie_break)
                | {"hits": [[s, n] for s, n in self.tie_break.hits.items()]}
                if self.tie_break
                else None
            ),
        }


MinotaurusState.handlers = {
    ("turn", Flip): MinotaurusState._flip,
    ("second", Flip): MinotaurusState._flip,
    ("reveal", Reveal): MinotaurusState._reveal,
    ("decide", Claim): MinotaurusState._claim,
    ("decide", ReturnFaceDown): MinotaurusState._return,
    ("turn", Challenge): MinotaurusState._challenge,
    ("turn", Pass): MinotaurusState._pass,
    ("toss", Toss): MinotaurusState._toss,
    ("exchange", TakePiece): MinotaurusState._take,
    ("exchange", Decline): MinotaurusState._decline,
    ("tiebreak", Toss): MinotaurusState._tie_break_toss,
}


class Minotaurus(Game):
    name: ClassVar[str] = "minotaurus"
    title: ClassVar[str] = "Minotaurus"
    summary: ClassVar[str] = N_(
        "Collect pairs of horn pieces from the table; challenges are settled by tossing rings onto the horns."
    )
    min_players: ClassVar[int] = min(SETUPS)
    max_players: ClassVar[int] = max(SETUPS)
    action_types: ClassVar[tuple[type[Action], ...]] = (
        Flip,
        Reveal,
        Claim,
        ReturnFaceDown,
        Challenge,
        Toss,
        TakePiece,
        Decline,
        Pass,
    )

    def option_specs(self) -> tuple[OptionSpec, ...]:
        return minotaurus_options(self.min_players, self.max_players)

    def _setup(self, options: Mapping[str, Any]) -> MinotaurusState:
        if options["first_player"] >= options["players"]:
            raise SetupError(
                f"option first_player={options['first_player']} is invalid: must be a whole number from 0 to "
                f"{options['players'] - 1} with {options['players']} players"
            )
        return MinotaurusState(options)

    def state_from_json(self, data: JsonDict) -> MinotaurusState:
        state = self._setup(self.validate_options(data["options"]))
        state.on_table = [bool(x) for x in data["on_table"]]
        state.seen = {int(pos): Piece.from_json(p) for pos, p in data["seen"]}
        state.flipped = [(int(pos), Piece.from_json(p) if p else None) for pos, p in data["flipped"]]
        state.holdings = [{str(c): [int(v) for v in p] for c, p in h.items()} for h in data["holdings"]]
        state.current = int(data["current"])
        state.phase = str(data["phase"])
        state.challenge = ChallengeInProgress(**data["challenge"]) if data["challenge"] else None
        if data["tie_break"]:
            tb = dict(data["tie_break"])
            tb["hits"] = {int(s): int(n) for s, n in tb["hits"]}
            state.tie_break = TieBreak(**tb)
        return state


MinotaurusState.game = register(Minotaurus())
