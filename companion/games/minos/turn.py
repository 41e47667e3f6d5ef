"""A Minos turn outside conflicts: setup removals, rolling, dice combinations, building, purchases."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from companion.games.base import CHANCE, Action, RuleError
from companion.games.minos import building
from companion.games.minos.actions import (
    BuyRing,
    DieShows,
    EndTurn,
    RemoveField,
    RollAgain,
    SetAside,
    UseCombination,
)
from companion.games.minos.data import (
    ACTION_SYMBOLS,
    BOARD,
    DICE_COUNT,
    FACES,
    JOKER,
    MOEWE,
    PFEIL,
    RING_PRICE,
    STERN,
    WAAGE,
    symbol_name,
)
from companion.games.minos.dice import combination_yield
from companion.games.minos.options import PER_DIE
from companion.games.minos.stalemate import can_still_end
from companion.games.minos.state import ALL_DICE, NO_DICE, NOT_KEPT, add_guards, die_readings

if TYPE_CHECKING:
    from companion.games.minos.state import MinosState

DICE_RULE = "Symbol-Würfel und Spielaktionen"

# ---------------------------------------------------------------- setup


def removal_actions(state: MinosState) -> list[Action]:
    return [RemoveField(CHANCE, s) for s in state.active_settlements()]


def remove_field(state: MinosState, action: RemoveField) -> None:
    if action.settlement not in BOARD.settlements:
        raise RuleError("Regeln für 2 und 3 Personen", f"{action.settlement!r} is not a settlement field")
    if action.settlement in state.removed:
        raise RuleError("Regeln für 2 und 3 Personen", f"{action.settlement} already holds a gold coin")
    state.removed += (action.settlement,)
    state.removals_left -= 1
    if not state.removals_left:
        state.phase = "roll"


# ---------------------------------------------------------------- rolling


def roll_actions(state: MinosState) -> list[Action]:
    return list(die_readings(state.pending[0]))


def read_die(state: MinosState, action: DieShows) -> None:
    state.dice, state.pending = read_one_die(state.dice, state.pending, action, "Spielablauf")
    if not state.pending:
        state.phase = "act"
        state.kept = NOT_KEPT


def read_one_die(
    dice: tuple[str | None, ...], pending: tuple[int, ...], action: DieShows, rule: str
) -> tuple[tuple[str | None, ...], tuple[int, ...]]:
    """The dice with one more reading, and the dice still rolling.

    The table reports the rolled dice in the order of their numbers, so that a roll is a short,
    fixed sequence of readings (six outcomes each), whatever the camera saw first.
    """
    if action.die not in pending:
        raise RuleError(rule, f"die {action.die + 1} is not being rolled now")
    if action.die != pending[0]:
        raise RuleError(rule, f"dice are read in order: die {pending[0] + 1} first")
    if action.symbol not in FACES:
        raise RuleError(rule, f"a symbol die shows one of {', '.join(FACES)}, not {action.symbol!r}")
    shown = tuple(action.symbol if i == action.die else s for i, s in enumerate(dice))
    return shown, tuple(d for d in pending if d != action.die)


def _rolling_problem(state: MinosState) -> str | None:
    if state.rolling_done:
        return "the actions have started: no more rolling this turn"
    if state.rolls >= 3:
        return "a player rolls at most three times"
    return None


def set_aside(state: MinosState, action: SetAside) -> None:
    problem = _rolling_problem(state)
    if problem is not None:
        raise RuleError("Spielablauf", problem)
    if action.die not in ALL_DICE or state.kept[action.die]:
        raise RuleError("Spielablauf", f"die {action.die + 1} is not among the dice to roll again")
    state.kept = tuple(k or i == action.die for i, k in enumerate(state.kept))


def roll_again(state: MinosState, _: RollAgain) -> None:
    # The third roll may take dice set aside before ("auch schon beiseite gelegte"): so what is
    # set aside counts for one roll only, and after each roll every die may be set aside anew.
    problem = _rolling_problem(state)
    if problem is not None:
        raise RuleError("Spielablauf", problem)
    if all(state.kept):
        raise RuleError("Spielablauf", "every die is set aside: there is nothing to roll")
    state.rolls += 1
    state.pending = tuple(i for i in ALL_DICE if not state.kept[i])
    state.dice = tuple(None if i in state.pending else s for i, s in enumerate(state.dice))
    state.phase = "roll"


# ---------------------------------------------------------------- the turn's actions


def turn_actions(state: MinosState) -> list[Action]:
    me = state.current
    actions: list[Action] = []
    if _rolling_problem(state) is None:
        actions += [SetAside(me, die) for die in ALL_DICE if not state.kept[die]]
        if not all(state.kept):
            actions.append(RollAgain(me))
    actions += combination_actions(state)
    if state.may_buy_rings and state.cash[me] >= RING_PRICE and state.ring_supply:
        actions.append(BuyRing(me))
    actions += building.building_actions(state)
    actions.append(EndTurn(me))
    return actions


def combination_actions(state: MinosState) -> list[Action]:
    unused = tuple(sorted(s for s, used in zip(state.dice, state.used, strict=True) if s and not used))
    return list(
        _combinations(
            state.current,
            unused,
            tuple(naturals_used(state, symbol) for symbol in ACTION_SYMBOLS),
            state.jokered,
            state.starred,
            state.income_open,
            state.options["joker_and_stern"] == PER_DIE,
        )
    )


def naturals_used(state: MinosState, symbol: str) -> int:
    """Dice showing `symbol` used this turn (a die showing it is only ever used as it)."""
    return sum(1 for face, used in zip(state.dice, state.used, strict=True) if used and face == symbol)


def may_join(per_die: bool, joined: int, naturals: int) -> bool:
    """Whether one more Joker (or Stern) may join a symbol's dice this turn.

    `joined` of them joined its dice this turn already; `naturals` dice showing the symbol are used
    this turn, counting the combination asked for. Read per symbol and turn (the default), all its
    dice are one combination: one Joker and one Stern. Read per die, each die showing the symbol
    takes its own, and without one a single Joker stands for the symbol; either way Gebäude + Joker
    + Joker stays refused, also split into Gebäude + Joker and a Joker alone (docs/rulings.md).
    """
    return joined < (max(1, naturals) if per_die else 1)


@functools.cache
def _combinations(
    seat: int,
    unused: tuple[str, ...],
    used_naturals: tuple[int, ...],
    jokered: tuple[str, ...],
    starred: tuple[str, ...],
    income_open: bool,
    per_die: bool,
) -> tuple[UseCombination, ...]:
    """Every combination the unused dice allow (cached: the same few dice come up again and again)."""
    has_joker, has_star = JOKER in unused, STERN in unused
    actions: list[UseCombination] = []
    for symbol, before in zip(ACTION_SYMBOLS, used_naturals, strict=True):
        if symbol == WAAGE and not income_open:
            continue
        for naturals in range(unused.count(symbol) + 1):
            joker_ok = has_joker and may_join(per_die, jokered.count(symbol), before + naturals)
            star_ok = has_star and may_join(per_die, starred.count(symbol), before + naturals)
            for joker in (False, True) if joker_ok else (False,):
                if naturals or joker:
                    stars = (False, True) if star_ok else (False,)
                    actions += [UseCombination(seat, symbol, naturals, joker, s) for s in stars]
    return tuple(actions)


def use_combination(state: MinosState, action: UseCombination) -> None:
    symbol = action.symbol
    if symbol not in ACTION_SYMBOLS:
        raise RuleError(
            DICE_RULE, f"a combination is one of {', '.join(ACTION_SYMBOLS)} (the Joker as one of them)"
        )
    if action.naturals < 0 or not (action.naturals or action.joker):
        raise RuleError(
            DICE_RULE, "a combination needs a die showing its symbol or the Joker: Stern alone is worthless"
        )
    _check_joker_and_stern(state, action)
    naturals = state.unused_dice(symbol)
    if len(naturals) < action.naturals:
        raise RuleError(
            DICE_RULE, f"only {len(naturals)} unused dice show {symbol_name(symbol)}, not {action.naturals}"
        )
    chosen = naturals[: action.naturals]
    for wanted, face in ((action.joker, JOKER), (action.star, STERN)):
        if wanted:
            free = state.unused_dice(face)
            if not free:
                raise RuleError(DICE_RULE, f"no unused die shows the {face}")
            chosen.append(free[0])
    if symbol == WAAGE and not state.income_open:
        raise RuleError("Waage", "the income (Waage) must be the first action of the turn")
    if action.joker:
        state.jokered += (symbol,)
    if action.star:
        state.starred += (symbol,)
    me = state.current
    amount = combination_yield(symbol, action.naturals, action.joker, action.star)
    used = list(state.used)
    for die in chosen:
        used[die] = True
    state.used = tuple(used)
    state.rolling_done = True
    if symbol == WAAGE:
        state.cash[me] += amount * state.value(me)
        return
    state.income_open = False
    if symbol == PFEIL:
        granted = min(amount, state.ring_supply)  # the supply of 50 rings limits the free ones too
        state.rings[me] += granted
        state.ring_supply -= granted
        state.may_buy_rings = True
    elif symbol == MOEWE:
        state.move_points += amount
    else:
        state.build_rights += amount


def _check_joker_and_stern(state: MinosState, action: UseCombination) -> None:
    """Joker and Stern count once in a combination ("nur einmal"); the house rule joker_and_stern
    says whether a combination is all a symbol's dice in the turn or each die of it."""
    per_die = state.options["joker_and_stern"] == PER_DIE
    naturals = naturals_used(state, action.symbol) + action.naturals
    for wanted, face, done in ((action.joker, JOKER, state.jokered), (action.star, STERN, state.starred)):
        if wanted and not may_join(per_die, done.count(action.symbol), naturals):
            where = (
                f"each {symbol_name(action.symbol)} die used this turn has its {face} already"
                if per_die
                else f"the {symbol_name(action.symbol)} combination has its {face} already"
            )
            raise RuleError(DICE_RULE, f"{where}: Joker and Stern count once in a combination")


def buy_ring(state: MinosState, _: BuyRing) -> None:
    me = state.current
    if not state.may_buy_rings:
        raise RuleError("Pfeil", "battle rings may be bought only in a turn in which a Pfeil was used")
    if state.cash[me] < RING_PRICE:
        raise RuleError("Pfeil", f"a battle ring costs {RING_PRICE} talents; seat {me} has {state.cash[me]}")
    if not state.ring_supply:
        raise RuleError("Pfeil", "no battle ring is left in the supply")
    state.cash[me] -= RING_PRICE
    state.rings[me] += 1
    state.ring_supply -= 1
    state.rolling_done = True
    state.income_open = False


# ---------------------------------------------------------------- end of turn


def end_turn(state: MinosState, _: EndTurn | None = None) -> None:
    for ship_field, origin in state.aboard.items():
        # optional rule: a guard must reach its goal in the same turn, so one still aboard goes back.
        del ship_field
        add_guards(state, origin, state.current, 1)
    state.aboard = {}
    state.turns_taken += 1
    players = state.players_in()
    if len(players) <= 1 or not can_still_end(state):
        state.phase = "over"
        return
    seat = state.current
    while True:
        seat = (seat + 1) % state.num_players
        if not state.eliminated[seat]:
            break
    state.current = seat
    state.phase = "roll"
    state.dice = NO_DICE
    state.pending = ALL_DICE
    state.kept = NOT_KEPT
    state.rolls = 1
    state.used = (False,) * DICE_COUNT
    state.rolling_done = False
    state.income_open = True
    state.move_points = 0
    state.build_rights = 0
    state.may_buy_rings = False
    state.jokered = ()
    state.starred = ()
    state.purchased = ()
    state.conflict = None
