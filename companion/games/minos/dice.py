"""The six symbol dice: what a roll is worth in combat, and what a combination yields."""

from __future__ import annotations

from collections.abc import Iterable

from companion.games.minos.data import (
    BUILD_RIGHTS_PER_DIE,
    COMBAT_VALUES,
    GEBAEUDE,
    INCOME_PER_DIE,
    MOEWE,
    MOVEMENT_PER_DIE,
    PFEIL,
    RINGS_PER_DIE,
    SPECIAL_COMBINATION,
    SPECIAL_VALUE,
    STAR_BONUS,
    WAAGE,
)


def combat_value(symbols: Iterable[str]) -> int:
    """Dice counted singly, plus the bonus for each complete Pfeil + Joker + Stern.

    With six dice two special combinations fit, so the maximum is 20 as the text says.
    """
    shown = list(symbols)
    single = sum(COMBAT_VALUES[s] for s in shown)
    specials = min(shown.count(s) for s in SPECIAL_COMBINATION)
    bonus = SPECIAL_VALUE - sum(COMBAT_VALUES[s] for s in SPECIAL_COMBINATION)
    return single + specials * bonus


def combination_units(naturals: int, joker: bool, star: bool) -> int:
    """How many times the action is done: each die of the symbol and the Joker once, the Stern adds one."""
    return naturals + int(joker) + int(star)


def combination_yield(symbol: str, naturals: int, joker: bool, star: bool) -> int:
    """Income multiple, rings, movement points or build rights of one combination.

    The Stern adds one unit of whatever the combination gives: one more income
    (3x from Waage + Joker + Stern), one ring, one build right, but one movement
    point, not five (Möwe + Joker + Stern = 5 + 5 + 1 = 11 in the text).
    """
    dice = naturals + int(joker)
    extra = STAR_BONUS if star else 0
    if symbol == WAAGE:
        return dice * INCOME_PER_DIE + extra
    if symbol == PFEIL:
        return dice * RINGS_PER_DIE + extra
    if symbol == MOEWE:
        return dice * MOVEMENT_PER_DIE + extra
    if symbol == GEBAEUDE:
        return dice * BUILD_RIGHTS_PER_DIE + extra
    raise ValueError(f"{symbol} is not an action symbol")
