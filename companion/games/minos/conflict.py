"""Movement, the optional guard transport, and conflicts: dice duels, sieges and conquest."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from companion.games.base import Action, RuleError
from companion.games.minos.actions import DieShows, Embark, Move, RollAgain, SetAside, StandDice
from companion.games.minos.data import BOARD, WAAGE
from companion.games.minos.dice import combat_value
from companion.games.minos.state import (
    ALL_DICE,
    GUARD,
    NO_DICE,
    NOT_KEPT,
    SHIP,
    Conflict,
    add_guards,
    die_readings,
)
from companion.games.minos.turn import end_turn, read_one_die

if TYPE_CHECKING:
    from companion.games.minos.state import MinosState

MOVE_RULE = "Bewegungen"
CONFLICT_RULE = "Konflikte"
RING_RULE = "Funktion der Kampfringe"
EXTRA_RULE = "Zusatzregel"

# ---------------------------------------------------------------- movement


def _own_pieces(state: MinosState) -> list[tuple[str, str]]:
    me = state.current
    pieces = [(SHIP, f) for f, owners in state.ships.items() if me in owners]
    pieces += [(GUARD, f) for f, (owner, _n) in state.guards.items() if owner == me]
    return pieces


def move_actions(state: MinosState) -> list[Action]:
    actions: list[Action] = []
    if state.move_points:
        for piece, origin in _own_pieces(state):
            graph = BOARD.ship_neighbours if piece == SHIP else BOARD.guard_neighbours
            for target in graph[origin]:
                if _step_problem(state, piece, origin, target) is None:
                    actions.append(Move(state.current, piece, origin, target))
    if state.options["guards_by_ship"]:
        me = state.current
        docked = [f for f, owners in state.ships.items() if owners == (me,) and state.guard_owner(f) == me]
        actions += [Embark(me, s) for s in docked if _embark_problem(state, s) is None]
    return actions


def _defender(state: MinosState, piece: str, target: str) -> int | None:
    """Whose pieces the move runs into: a settlement's holder, or the piece on the field."""
    if BOARD.is_settlement(target):
        return state.owner(target)
    return state.ship_owner(target) if piece == SHIP else state.guard_owner(target)


def _move_problem(state: MinosState, piece: str, origin: str, target: str) -> str | None:
    me = state.current
    if piece not in (SHIP, GUARD):
        return f"a piece is a {SHIP} or a {GUARD}, not {piece!r}"
    graph = BOARD.ship_neighbours if piece == SHIP else BOARD.guard_neighbours
    if origin not in graph or target not in graph[origin]:
        where = (
            "sea fields sharing a border, or a harbour" if piece == SHIP else "land fields joined by a line"
        )
        return (
            f"a {piece} moves one field at a time between {where}; {origin!r}-{target!r} is not such a step"
        )
    mine = me in state.ships.get(origin, ()) if piece == SHIP else state.guard_owner(origin) == me
    if not mine:
        return f"seat {me} has no {piece} on {origin}"
    if not state.move_points:
        return "no movement points are left this turn (a Möwe gives five)"
    return _step_problem(state, piece, origin, target)


def _step_problem(state: MinosState, piece: str, origin: str, target: str) -> str | None:
    """What forbids a step of one's own piece to a neighbouring field, points in hand; None if allowed."""
    me = state.current
    if target in state.removed:
        return f"{target} holds a gold coin and is out of play"
    carrying = piece == SHIP and origin in state.aboard
    if carrying and not BOARD.is_settlement(target) and state.ship_owner(target) not in (None, me):
        return "a ship carrying a guard needs a free sea route: no conflict on the way (Zusatzregel)"
    # Only on the start field can two ships share a field; which of them carries the guard would be
    # unclear, so there a carrying ship is its owner's only ship.
    crowded = piece == SHIP and target == BOARD.start and me in state.ships.get(target, ())
    if crowded and (carrying or target in state.aboard):
        return f"a ship carrying a guard is its owner's only ship on {target} (Zusatzregel)"
    defender = _defender(state, piece, target)
    if defender is None or defender == me:
        if piece == SHIP and target != BOARD.start and target in state.ships:
            return f"only one ship fits on {target}"
        if piece == GUARD and not BOARD.is_settlement(target) and target in state.guards:
            return f"only one guard stands on {target} (any number only on a settlement field)"
        return None
    if state.in_first_round():
        return "no conflicts in the first round: move so that no conflict arises"
    return None


def move(state: MinosState, action: Move) -> None:
    problem = _move_problem(state, action.piece, action.origin, action.target)
    if problem is not None:
        rule = CONFLICT_RULE if "first round" in problem else MOVE_RULE
        raise RuleError(EXTRA_RULE if "Zusatzregel" in problem else rule, problem)
    state.move_points -= 1
    state.rolling_done = True
    state.income_open = False
    defender = _defender(state, action.piece, action.target)
    if defender is None or defender == state.current:
        _step(state, action.piece, action.origin, action.target)
        return
    siege = BOARD.is_settlement(action.target)
    defending = action.piece  # a duel: ship against ship, guard against guard
    if siege:
        defending = SHIP if state.ship_owner(action.target) is not None else GUARD  # the ship first
    state.conflict = Conflict(
        attacker=state.current,
        defender=defender,
        piece=action.piece,
        origin=action.origin,
        target=action.target,
        siege=siege,
        carrying=action.piece == SHIP and action.origin in state.aboard,
        defending=defending,
        roller=state.current,
        dice=NO_DICE,
        pending=ALL_DICE,
    )
    state.phase = "conflict"


def _step(state: MinosState, piece: str, origin: str, target: str) -> None:
    me = state.current
    if piece == SHIP:
        _remove_ship(state, origin, me)
        state.ships[target] = (*state.ships.get(target, ()), me)
        carried_from = state.aboard.pop(origin, None)
        if carried_from is not None:
            if BOARD.is_settlement(target):
                add_guards(state, target, me, 1)  # the guard goes ashore at the first settlement reached
            else:
                state.aboard[target] = carried_from
    else:
        _remove_guard(state, origin)
        add_guards(state, target, me, 1)


def _remove_ship(state: MinosState, field: str, seat: int) -> None:
    owners = list(state.ships[field])
    owners.remove(seat)
    if owners:
        state.ships[field] = tuple(owners)
    else:
        del state.ships[field]


def _remove_guard(state: MinosState, field: str) -> None:
    owner, count = state.guards[field]
    if count > 1:
        state.guards[field] = (owner, count - 1)
    else:
        del state.guards[field]


def _embark_problem(state: MinosState, settlement: str) -> str | None:
    me = state.current
    if not state.options["guards_by_ship"]:
        return "guards travel by ship only with the optional rule (Zusatzregel)"
    if settlement not in BOARD.settlements or state.ship_owner(settlement) != me:
        return f"seat {me} has no ship in the harbour of {settlement!r}"
    if state.guard_owner(settlement) != me:
        return f"seat {me} has no guard on {settlement}"
    if settlement in state.aboard:
        return "a ship never carries more than one guard"
    return None


def embark(state: MinosState, action: Embark) -> None:
    problem = _embark_problem(state, action.settlement)
    if problem is not None:
        raise RuleError(EXTRA_RULE, problem)
    _remove_guard(state, action.settlement)
    state.aboard[action.settlement] = action.settlement
    state.rolling_done = True
    state.income_open = False


# ---------------------------------------------------------------- duels


def combat_actions(state: MinosState) -> list[Action]:
    c = state.conflict
    assert c is not None
    if c.pending:
        return list(die_readings(c.pending[0]))
    actions: list[Action] = [StandDice(c.roller)]
    if state.rings[c.roller]:
        free = _free_dice(c)
        actions += [SetAside(c.roller, die) for die in free]
        if free:
            actions.append(RollAgain(c.roller))
    return actions


def _free_dice(c: Conflict) -> list[int]:
    """Dice that may be rolled again: not set aside, and not showing the Waage ("Nur Würfel, auf
    denen die Waage gewürfelt wurde, darf der Spieler nicht noch einmal benutzen")."""
    return [i for i, s in enumerate(c.dice) if s != WAAGE and not c.kept[i]]


def read_combat_die(state: MinosState, action: DieShows) -> None:
    c = state.conflict
    assert c is not None
    dice, pending = read_one_die(c.dice, c.pending, action, RING_RULE)
    c = dataclasses.replace(c, dice=dice, pending=pending, kept=NOT_KEPT)
    state.conflict = c
    if not pending and (not state.rings[c.roller] or not _free_dice(c)):
        _stand(state)  # nothing left to decide: no ring to pay, or only Waage dice showing


def _reroll_problem(state: MinosState, c: Conflict) -> str | None:
    if not state.rings[c.roller]:
        return f"every roll after the first costs a battle ring; seat {c.roller} has none"
    return None


def combat_set_aside(state: MinosState, action: SetAside) -> None:
    c = state.conflict
    assert c is not None
    problem = _reroll_problem(state, c)
    if problem is None and action.die not in _free_dice(c):
        problem = f"die {action.die + 1} is set aside already, shows the Waage, or does not exist"
    if problem is not None:
        raise RuleError(RING_RULE, problem)
    state.conflict = dataclasses.replace(c, kept=tuple(k or i == action.die for i, k in enumerate(c.kept)))


def combat_roll_again(state: MinosState, _: RollAgain) -> None:
    c = state.conflict
    assert c is not None
    problem = _reroll_problem(state, c)
    free = _free_dice(c)
    if problem is None and not free:
        problem = "no die is left to roll again (dice showing the Waage stay)"
    if problem is not None:
        raise RuleError(RING_RULE, problem)
    state.rings[c.roller] -= 1
    state.ring_supply += 1
    pending = tuple(free)
    dice = tuple(None if i in pending else s for i, s in enumerate(c.dice))
    state.conflict = dataclasses.replace(c, dice=dice, pending=pending, kept=NOT_KEPT)


def stand(state: MinosState, _: StandDice) -> None:
    _stand(state)


def _stand(state: MinosState) -> None:
    c = state.conflict
    assert c is not None
    score = combat_value(s for s in c.dice if s is not None)
    if c.roller == c.attacker:
        state.conflict = dataclasses.replace(
            c, roller=c.defender, dice=NO_DICE, pending=ALL_DICE, attacker_total=score
        )
        return
    assert c.attacker_total is not None
    if c.attacker_total > score:  # "Bei Gleichstand gewinnt der Verteidiger."
        _attacker_wins(state, c)
    else:
        _defender_wins(state, c)


def _attacker_wins(state: MinosState, c: Conflict) -> None:
    if c.defending == SHIP:
        _remove_ship(state, c.target, c.defender)
        state.ship_supply[c.defender] += 1
    else:
        _remove_guard(state, c.target)
        state.guard_supply[c.defender] += 1
    _check_elimination(state, c.defender)
    if c.siege and state.owner(c.target) == c.defender:
        # the siege goes on: every defender must be beaten, the ship first
        defending = SHIP if state.ship_owner(c.target) is not None else GUARD
        state.conflict = dataclasses.replace(
            c, defending=defending, roller=c.attacker, dice=NO_DICE, pending=ALL_DICE, attacker_total=None
        )
        return
    if c.siege:
        _conquer(state, c)
    _finish(state)


def _conquer(state: MinosState, c: Conflict) -> None:
    me = c.attacker
    if c.piece == "carried_guard":
        state.aboard.pop(c.origin, None)
        add_guards(state, c.target, me, 1)
        return
    _step(state, c.piece, c.origin, c.target)
    if c.piece == SHIP and state.guard_supply[me]:
        # "darf er sofort nach der Eroberung kostenlos einen Wächter in diese Siedlung setzen"
        state.guard_supply[me] -= 1
        add_guards(state, c.target, me, 1)


def _defender_wins(state: MinosState, c: Conflict) -> None:
    me = c.attacker
    if c.piece == SHIP:
        _remove_ship(state, c.origin, me)
        state.ship_supply[me] += 1
        if c.carrying:
            # "Zuerst kämpft das anreisende Schiff. Verliert es, muß mit dem Wächter gekämpft werden."
            state.conflict = dataclasses.replace(
                c,
                piece="carried_guard",
                carrying=False,
                roller=me,
                dice=NO_DICE,
                pending=ALL_DICE,
                attacker_total=None,
            )
            return
    elif c.piece == GUARD:
        _remove_guard(state, c.origin)
        state.guard_supply[me] += 1
    else:
        state.aboard.pop(c.origin, None)
        state.guard_supply[me] += 1
    _check_elimination(state, me)
    _finish(state)


def _check_elimination(state: MinosState, seat: int) -> None:
    if state.pieces_on_board(seat) == (0, 0):
        state.eliminated = [out or p == seat for p, out in enumerate(state.eliminated)]


def _finish(state: MinosState) -> None:
    state.conflict = None
    state.phase = "act"
    if len(state.players_in()) <= 1 or state.eliminated[state.current]:
        end_turn(state)
