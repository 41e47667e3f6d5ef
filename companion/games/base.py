"""The one small interface every game implements.

Modelled on OpenSpiel's Python games: a `Game` holds metadata and option
specifications; a `State` is one position of one game. States are values:
`apply` returns a new state and never changes the old one, so an illegal
action (a `RuleError`) can never leave a game half-changed.

Hidden information is never part of a state. Whatever the table has not
shown yet (a face-down piece, a toss not yet made) arrives as an action of
the `CHANCE` pseudo-player: an observation from the camera, a sensor, the
host, or in simulation the simulator.
"""

from __future__ import annotations

import dataclasses
import random
import types
import typing
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, NoReturn, Self

CHANCE = -1
"""The seat of the table itself: reveals and toss verdicts are its actions."""

JsonDict = dict[str, Any]


class GameError(ValueError):
    """Base of every error a game raises for bad input."""


class RuleError(GameError):
    """An action the rules forbid. `rule` names the rule that refused it."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{message} (rule: {rule})")
        self.rule = rule
        self.reason = message


class SetupError(GameError):
    """Setup options outside their valid ranges."""


class ActionFormatError(GameError):
    """An action (usually from JSON) that is not well formed for its game."""


# ---------------------------------------------------------------- options


def N_(text: str) -> str:
    """Mark `text` for translation and return it unchanged.

    Game modules are pure (no Flask), so their option words stay English here; Babel extracts
    every N_("...") literal and the web layer translates it by msgid.
    """
    return text


@dataclasses.dataclass(frozen=True)
class OptionSpec:
    """One setup option with its valid range, shown to the host as data and in words.

    `description` explains what the option changes at the table (for a house rule: which reading
    each choice is and where docs/rulings.md discusses it); `label` names it in a few words, and
    `choice_labels` gives each choice its words, in the order of `choices`. The JSON values
    (`name`, `default`, `choices`) are what game records store, so they never change.
    """

    name: str
    description: str
    default: Any
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    label: str = ""
    choice_labels: tuple[str, ...] | None = None
    house_rule: bool = False
    """A reading of the rule text where players differ (docs/rulings.md), not a plain setting."""
    seat: bool = False
    """The value is a seat: the host picks a player by name."""

    def __post_init__(self) -> None:
        if self.choice_labels is not None and (
            self.choices is None or len(self.choice_labels) != len(self.choices)
        ):
            raise ValueError(f"option {self.name}: one label per choice is needed")

    def valid_range(self) -> str:
        if self.choices is not None:
            return "one of " + ", ".join(repr(c) for c in self.choices)
        return f"a whole number from {self.minimum} to {self.maximum}"

    def validate(self, value: Any) -> Any:
        if self.choices is not None:
            if value not in self.choices or isinstance(value, bool) != isinstance(self.choices[0], bool):
                raise SetupError(f"option {self.name}={value!r} is invalid: must be {self.valid_range()}")
            return value
        if isinstance(value, bool) or not isinstance(value, int):
            raise SetupError(f"option {self.name}={value!r} is invalid: must be {self.valid_range()}")
        if (self.minimum is not None and value < self.minimum) or (
            self.maximum is not None and value > self.maximum
        ):
            raise SetupError(f"option {self.name}={value!r} is invalid: must be {self.valid_range()}")
        return value

    def _choice_words(self) -> list[str] | None:
        if self.choice_labels is not None:
            return list(self.choice_labels)
        return None if self.choices is None else [str(c) for c in self.choices]

    def to_json(self) -> JsonDict:
        return {
            "name": self.name,
            "description": self.description,
            "default": self.default,
            "choices": list(self.choices) if self.choices is not None else None,
            "minimum": self.minimum,
            "maximum": self.maximum,
            "label": self.label or self.name.replace("_", " ").capitalize(),
            "choice_labels": self._choice_words(),
            "house_rule": self.house_rule,
            "seat": self.seat,
        }


def players_option(default: int, minimum: int, maximum: int) -> OptionSpec:
    return OptionSpec(
        "players",
        N_("How many people play; each gets a seat, in the order they sit round the table."),
        default,
        minimum=minimum,
        maximum=maximum,
        label=N_("Players"),
    )


def first_player_option(maximum: int, description: str) -> OptionSpec:
    """Who begins, picked by name in the form (stored as a seat: seats count clockwise from 0)."""
    return OptionSpec(
        "first_player", description, 0, minimum=0, maximum=maximum - 1, label=N_("Who begins"), seat=True
    )


# ---------------------------------------------------------------- actions


@dataclasses.dataclass(frozen=True)
class Action:
    """An action of one seat (`by`), or of the table when `by == CHANCE`.

    Subclasses are frozen dataclasses whose extra fields are int, str, bool,
    an optional of those, or a tuple of ints; `kind` names them in JSON.
    """

    kind: ClassVar[str] = "action"
    fades: ClassVar[bool] = False
    """True when what this action shows can be hidden again at the table (a piece turned face
    down again): logs and replays shown to players must not keep it past its moment."""
    by: int

    def label(self) -> str:
        """A short text for a button or a log line; games override it for their players."""
        fields = ", ".join(
            f"{f.name}={getattr(self, f.name)}" for f in dataclasses.fields(self) if f.name != "by"
        )
        return f"{self.kind} {fields}".strip()

    def to_json(self) -> JsonDict:
        data: JsonDict = {"kind": self.kind}
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            data[field.name] = list(value) if isinstance(value, tuple) else value
        return data


def _check_field(kind: str, name: str, hint: Any, value: Any) -> Any:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(hint)
        if value is None and type(None) in options:
            return None
        inner = [o for o in options if o is not type(None)]
        return _check_field(kind, name, inner[0], value)
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise ActionFormatError(f"{kind}.{name} must be a list, not {value!r}")
        (item_hint, _ellipsis) = typing.get_args(hint)
        return tuple(_check_field(kind, name, item_hint, v) for v in value)
    if hint is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise ActionFormatError(f"{kind}.{name} must be a whole number, not {value!r}")
    if hint is bool and not isinstance(value, bool):
        raise ActionFormatError(f"{kind}.{name} must be true or false, not {value!r}")
    if hint is str and not isinstance(value, str):
        raise ActionFormatError(f"{kind}.{name} must be text, not {value!r}")
    return value


def action_from_json(action_types: Sequence[type[Action]], data: Any) -> Action:
    """Build an action from its JSON form, refusing anything malformed."""
    if not isinstance(data, Mapping):
        raise ActionFormatError(f"an action must be an object, not {data!r}")
    kinds = {t.kind: t for t in action_types}
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in kinds:  # a list or object as kind is no key of kinds
        raise ActionFormatError(f"unknown action kind {kind!r}; expected one of {', '.join(sorted(kinds))}")
    cls = kinds[kind]
    hints = typing.get_type_hints(cls)
    names = [f.name for f in dataclasses.fields(cls)]
    extra = set(data) - set(names) - {"kind"}
    if extra:
        raise ActionFormatError(f"{kind} has no field(s) {', '.join(sorted(map(str, extra)))}")
    missing = [n for n in names if n not in data]
    if missing:
        raise ActionFormatError(f"{kind} is missing field(s) {', '.join(missing)}")
    values = {n: _check_field(kind, n, hints[n], data[n]) for n in names}
    return cls(**values)


# ---------------------------------------------------------------- turns


@dataclasses.dataclass(frozen=True)
class ToAct:
    """Who must act now: one seat, several seats at once, or the table."""

    seats: tuple[int, ...]
    waiting_for: str
    """What the table waits for, in words: 'a reveal of position 7', ..."""

    @property
    def chance(self) -> bool:
        return self.seats == (CHANCE,)


NOBODY = ToAct((), "nothing: the game is over")


# ---------------------------------------------------------------- game, state


class State(ABC):
    """One position of a game. Subclasses keep their fields private to `_apply`."""

    game: ClassVar[Game]
    num_players: int

    @abstractmethod
    def to_act(self) -> ToAct: ...

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Every legal action of every seat that may act now."""

    @abstractmethod
    def copy(self) -> Self:
        """A copy deep enough that `_apply` on it leaves `self` unchanged."""

    @abstractmethod
    def _apply(self, action: Action) -> None:
        """Apply in place; raise `RuleError` before changing anything visible."""

    @abstractmethod
    def public_view(self) -> JsonDict:
        """Only what every player at the table may see."""

    @abstractmethod
    def scores(self) -> list[int]:
        """Points per seat in the game's own terms (provisional while running)."""

    @abstractmethod
    def ranking(self) -> list[list[int]]:
        """Seats grouped by place, best first; seats in one group share it."""

    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def to_json(self) -> JsonDict:
        """Everything needed to rebuild this state with `Game.state_from_json`."""

    @abstractmethod
    def component_counts(self) -> dict[str, int]:
        """Counts that no action may change (pieces in the game, tiles, ...)."""

    def apply(self, action: Action) -> Self:
        """Return the state after `action`; raise `RuleError` if it is illegal."""
        if self.is_over():
            raise RuleError("game end", "the game is over; no more actions are taken")
        acting = self.to_act()
        if action.by not in acting.seats:
            who = "the table" if action.by == CHANCE else f"seat {action.by}"
            raise RuleError("turn order", f"it is not {who}'s turn: waiting for {acting.waiting_for}")
        new = self.copy()
        new._apply(action)
        return new

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """Chance actions with their probabilities; uniform unless a game knows better."""
        actions = [a for a in self.legal_actions() if a.by == CHANCE]
        return [(a, 1.0 / len(actions)) for a in actions]

    def random_chance_action(self, rng: random.Random) -> Action:
        outcomes = self.chance_outcomes()
        return rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]


class PhasedState(State):
    """A state that takes each action by the phase of the turn it is in.

    `handlers` maps (phase, action type) to the rule that takes it; an action
    with no rule in the current phase is out of the turn's sequence.
    """

    phase: str
    handlers: ClassVar[Mapping[tuple[str, type[Action]], Callable[[Any, Any], None]]] = {}
    sequence_rule: ClassVar[str] = "turn sequence"
    """The rule text's name for the order of a turn, named when an action comes out of it."""

    def _apply(self, action: Action) -> None:
        handler = self.handlers.get((self.phase, type(action)))
        if handler is None:
            self._out_of_sequence(action)
        handler(self, action)

    def _out_of_sequence(self, action: Action) -> NoReturn:
        waiting = self.to_act().waiting_for
        raise RuleError(self.sequence_rule, f"{action.kind} is not possible now: waiting for {waiting}")


class Game(ABC):
    """A game's metadata, options and codecs."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    action_types: ClassVar[tuple[type[Action], ...]]
    summary: ClassVar[str] = ""
    """One line for the host choosing a game (marked with N_ for translation)."""
    colours: ClassVar[tuple[str, ...]] = ()
    """Each seat's colour, by seat, where the game gives players colours."""

    @abstractmethod
    def option_specs(self) -> tuple[OptionSpec, ...]: ...

    @abstractmethod
    def _setup(self, options: Mapping[str, Any]) -> State:
        """Initial state from options already validated and completed."""

    @abstractmethod
    def state_from_json(self, data: JsonDict) -> State: ...

    def validate_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Complete `options` with defaults; refuse unknown names and values out of range."""
        specs = {s.name: s for s in self.option_specs()}
        unknown = sorted(set(options) - set(specs))
        if unknown:
            raise SetupError(
                f"unknown option(s) {', '.join(unknown)} for {self.name}; valid options: {', '.join(specs)}"
            )
        return {name: spec.validate(options.get(name, spec.default)) for name, spec in specs.items()}

    def setup(self, options: Mapping[str, Any]) -> State:
        return self._setup(self.validate_options(options))

    def action_from_json(self, data: Any) -> Action:
        return action_from_json(self.action_types, data)

    def describe(self) -> JsonDict:
        return {
            "name": self.name,
            "title": self.title,
            "summary": self.summary,
            "colours": list(self.colours),
            "min_players": self.min_players,
            "max_players": self.max_players,
            "options": [s.to_json() for s in self.option_specs()],
        }
