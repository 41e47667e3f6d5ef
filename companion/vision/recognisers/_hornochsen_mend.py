"""Tanz der Hornochsen: readings mended by the game's rules.

Each number is on one tile and a row's tiles ascend from its first square: a reading that breaks either
takes its next likeliest number where that scores little less (the recogniser keeps each item's
alternatives for this).
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.games.hornochsen.board import BOARD
from companion.vision.recognisers._hornochsen_layout import parse_square

SWAP_SHORTFALL = 0.3
"""A number read twice is kept where it is surest; elsewhere the next likeliest number not read yet is
taken instead when it scores at most this much less (each number is on one tile only). (Recogniser alone
on cached planes, dev and burnt sets, against 0.15: 0.2-0.4 righted 2-5 items and lost none, 0.45 lost a
played 24 read 26, 0.6 three more; burnt 20261152's played 75 read 95 beside another seat's 95 needed
0.22.)"""


def one_of_each(
    items: dict[str, str], confidence: dict[str, float], others: Mapping[str, list[tuple[int, float]]]
) -> None:
    """Each number is on one tile: where one is read twice, the less sure reading takes its next likeliest."""
    readers: dict[str, list[str]] = {}
    for item_id, label in items.items():
        if label.isdigit():
            readers.setdefault(label, []).append(item_id)
    for item_ids in list(readers.values()):
        if len(item_ids) < 2:
            continue
        for item_id in sorted(item_ids, key=lambda i: confidence[i], reverse=True)[1:]:
            for number, shortfall in others[item_id]:
                if shortfall <= SWAP_SHORTFALL and str(number) not in readers:
                    items[item_id] = str(number)
                    readers[str(number)] = [item_id]
                    confidence[item_id] = 0.0
                    break


def ascending_rows(
    items: dict[str, str], confidence: dict[str, float], others: Mapping[str, list[tuple[int, float]]]
) -> None:
    """A row's tiles ascend from its first square (the game refuses a tile out of order): where two
    neighbours read out of order, the less sure of them (failing that, the other) takes its next likeliest
    number that fits between its neighbours and is not read elsewhere, when it scores at most
    SWAP_SHORTFALL less."""
    rows: dict[int, list[tuple[int, str]]] = {}
    for item_id, label in items.items():
        square = parse_square(item_id)
        if square is not None and label.isdigit():
            rows.setdefault(square[0], []).append((square[1], item_id))
    read = {label for label in items.values() if label.isdigit()}
    for squares in rows.values():
        row = [item_id for _, item_id in sorted(squares)]
        for place in range(len(row) - 1):
            left, right = row[place], row[place + 1]
            if int(items[left]) < int(items[right]):
                continue
            for item_id in sorted((left, right), key=lambda i: confidence[i]):
                at = row.index(item_id)
                low = int(items[row[at - 1]]) if at > 0 else 0
                high = int(items[row[at + 1]]) if at + 1 < len(row) else BOARD.tiles + 1
                fitting = [
                    number
                    for number, shortfall in others[item_id]
                    if shortfall <= SWAP_SHORTFALL and low < number < high and str(number) not in read
                ]
                if fitting:
                    read.discard(items[item_id])
                    items[item_id] = str(fitting[0])
                    read.add(items[item_id])
                    confidence[item_id] = 0.0
                    break
