"""Asterion: how a profile's taught looks join the candidates a cell is told apart among.

A taught look is one shot of one tile of the print: on other tables it correlates with its design less
than the looks transferred from the built-in pictures do with theirs (TAUGHT_CALL), or, alone in the
print's look among transferred ones, more with every tile of its colour (TAUGHT_CEILING). Asked by
_asterion_match.Templates when it picks a cell's candidates.
"""

from __future__ import annotations

TAUGHT_CALL = 0.2
"""A taught look is told apart from the candidates when scoring within this of the best, though beyond
CLOSE_CALL. It is one shot of one tile, under the teaching sitting's light and blur, and correlates less
with its design on other tables than looks transferred from the built-in pictures (learned from many
frames) do with theirs: the travel edition taught on dark wood (burnt 20261137), its blue cell taught
alone, read blue cells on gingham and printed cloth as treasuries, the taught cell 0.10-0.12 under the
transferred treasury, never compared where they differ. 0.1 and 0.15 read fewer of them right."""
TAUGHT_CEILING = 0.0
"""In a colour taught in fewer designs than transferred, a taught look counts, among the candidates, at most
this over the best look not taught. Alone in the print's whole look (its frame's width, its stone as pale
as the path), which every tile of its colour shares and the transferred looks (built-in drawings
recoloured) lack, it out-scores them on tiles of any design: the travel print's green cell taught alone
on dark wood (burnt 20261149) scored 0.63-0.85 on laminate's green tiles, 0.06-0.19 over the best look not
taught, and crowded the other designs out of the candidates (14 treasuries and treasure corridors read
green:cell); the pair tests (drawn looks) then tell them apart. Where most designs are taught their looks
meet each other: capped there too, a second print's yellow hidden chests read as corridors."""


def taught_candidates(
    values: list[float], taught: list[int], labels: list[str], named: set[str]
) -> list[int]:
    """The taught looks (of `taught`) scoring up to TAUGHT_CALL under the best of `values`, one a label
    not `named` yet (each added to `named`)."""
    floor = max(values) - TAUGHT_CALL if taught else 0.0
    chosen: list[int] = []
    for i in taught:
        if labels[i] not in named and values[i] >= floor:
            named.add(labels[i])
            chosen.append(i)
    return chosen


def capped(values: list[float], taught: list[int], not_taught: list[int]) -> list[float]:
    """`values` with the `taught` looks scored at most TAUGHT_CEILING over the best of `not_taught`."""
    ceiling = max(values[i] for i in not_taught) + TAUGHT_CEILING
    if all(values[i] <= ceiling for i in taught):
        return values
    scored = list(values)
    for i in taught:
        scored[i] = min(scored[i], ceiling)
    return scored
