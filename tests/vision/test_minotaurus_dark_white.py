"""The Minotaurus recogniser reads no face white that is darker than any white face on a normalised plane:
a dark blue face on a dim table, its chroma too faint to be "too coloured", keeps its hue; and a back whose
dark body the reference took for a dark table (its dim emblem and a dark rim left on the neutral grey, pale
enough to lie nearest a white prototype) is a back.
"""

from __future__ import annotations

import base64

import cv2
import numpy

from companion.vision.base import PLANE_PX_PER_MM
from companion.vision.generate.minotaurus import piece_face
from companion.vision.recognisers.minotaurus import DARK_WHITE_LIT, MinotaurusRecogniser, _cell_colours
from tests.vision.test_minotaurus_marks import LAYOUT, neutral_plane

TAKEN_BACK_PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAADQAAAA0CAIAAABKGoy8AAAH/klEQVRYCc3BwWcl6d7A8W/5ladUSZmi2jnOkTDb9/4Pd/XumqHp"
    "xRCaJmQRQmh6cVe/9bt6udxFcxlC04vQhKYXTRhmpE0YLn2l3RC69ZEjxRPPUaUe9eNNzhjuKveM9Es+n0RVua8SVeUPerF/2Hat"
    "91dAXdfA7tZj/h8kqsof8bcfXqcibdd6f1XXNb/b3XrM15aoKiv7n7/ur5VlKjKYxdg7lwF2YxBJd7ce81UlqsrK/vfFK5FURFhK"
    "RYA+xtj3ksre9vd8VYmqsrIX+4d9jGYDIJJmzgF9jF3biojLMhHZefqIryRRVVb2w6u3YbEAzAaRNHMO6GPs2lZEXJaxtLv1mK8h"
    "UVVW9te/H7BU3fjGBguLBRBCiLEHRFKWdrcec2eJqrKyv/3wGijyfDKd1nUNXHkPXDbNlfd9jLHv+xiBv+w95c4SVWVlL/YPgbqu"
    "1zc2xqPRl9nMew9477u2NTMRAS7m87/sPeXOElVlZS/2D4HRaLS+sTGdTs/Pz733gPe+a1szExGWtjYfcmeJqrKyF/uHwGg0Wt/Y"
    "mE6nH09PwyIA3l91bQs45yRNgSeP/5s7S1SVlf395RtgMp1+++23dV03TeO9B2ZfvjRN03atDXYNeL77hDtLVJWV7R+821hfB9Y3"
    "Nh7U9b/Ozq68/zKbAU1zGfsIiAjwbGeTO0tUlZW9fH00nUyA0XhcVdXH01Mz+zKbAU1zGfsIiAjwbGeTO0tUlZW9fH00nUyA0Xhc"
    "VdXH01Pv/Xw+B0IIgMuyzDkR2dp8yJ0lqsrK9l+/resaqKqqyIu8KObzi0+fPgNNc9m1HSYsPd99wp0lqsrKXh6+GY9GQF2Xa2WZ"
    "ipx+/DibNYCIAF1rmKyVJXD26VxEssyJpGYD0Pcxdh026PMdVpCoKis7ePumrmugHpfXQgjn5+fNPAIiAnStYbJWlsDnT59ExGWZ"
    "2cDvnMuKPI8xbj/5jv8kUVVWdvD2TX1tXAJlWYYQzs/PZ58aEeFGFhZ9bC0vCpZEJBUZzGLsWRJJM+cGM2Dn6SNulagqK3vz41FV"
    "VfVoDSiKom3b2WzWXITBjBtuEWK7iGaDSApkzgGD/WYARFIRYWnn6SNulagq/+bo+JSltuu6tq2qajADjF4kLQqpqryqCyDPC7+0"
    "8L2ZACJFH+PCt23XhRCAzDkzG+w3AyCSigiQimw/+Y5bJarK7349vRARwMzkWpoCNgyAEYG8kLLMqjoHnMs+f/7U930XrGkCIFL0"
    "MS5823ZdCAHInBMRWxrMWEpF+hhFZOfpI26VqCpLP/16Xq6tSZqKCFCWZZHnIQQzAwazRevzQsoyq+occC77/PlT3/ddsMEEyLIS"
    "aEP03psZkDkH9DGGEBYhAGYG9DGaDXvb33OrRFVZOnz3S/VNVT94ICJAWZZFnocQzGww45pYUUh5bc0BeSmz2YzBtZ3FPgJ5URVF"
    "3rfWNE3mHCAifYyLEC7mN4AQgt0YbLBnO5vcKlFVfvfjL/9yWZY5B8i1NLVBzNrBDEgdLqMsy6rK87wAuq4FQoghBCBzZVXWfWR+"
    "MS9LJyKAmXnvL+Y3QgiA3RhssGc7m9wqUVX+zdsf/5GKAG3XhrCo64ndaAGRtFhza6WrqqooUsB7LyLet00T/vRffwKqsu4j84t5"
    "WToRAczMe38xnzdN470HYuxZ2tv+nlslqsrKjn75sFa6qqqKIgW89yLifds0QciAuq5jZPbly2hUuSxjKfa9v/LeX4UQADOLfS+p"
    "7G1/z60SVWVlLw/fjUffrG9sTKdTQER+/umny2aRivgmAHlRlGUdQihyMTNgMIvX+t7MBjPAzIo8b7tud+sxt0pUlZW9enM0Ho3W"
    "N0bj8Rjw3r8/ft80AfBNAFxWFnnl/YXLMugBkRQo8tzMBjPAzIo8b7tud+sxt0pUlZW9enM0Ho3WN0YP6gfAZXN5cnJy5TuXueC7"
    "rm1dVhZ55f2FyzLoAZEUMBtssGssrZVl17bPdja5VaKqrOzVm6PxaLS+MXpQP7hsLoGTk5Mr37nMBd8BInmRV00zAyQdAOeyVG4A"
    "ZjaYAWbWte3z3SfcKlFVVvby9dF4Uk+mk7ouvffAyclJ19paUXWtSSpAkVdN0/QxZA7nHOCyjCW7NgxA23WLEJ7vPuFWiaqysv2D"
    "d6NJPZ1OyrUyLAJwcnISfFfkeVhEEQEyV17ML8oyEzERAVKRwayqKrs2DEDbdTtPH/GfJKrKyvYP3k0nk9G0zvMiFQGO37+/agJw"
    "2YSyLIHMlRfzi7LMRExEgFRksN8MNhjwbGeTFSSqysr2D95NJ5PRtM7zIhUBjt+/v2oCcNkEyICUvPUz1S3uLFFVVvbq8MfpZFKP"
    "qyIv8qIAfv75p+bCA953kuZA4Sof5s93H3Fniaqystdvf13fGFVVlTkXFov3x8dA0zQuK7vW1soSqKvJom22Nv/MnSWqyspeHf76"
    "oF6bTKd1XTdN888PH4CzszORoqoqEcmzCli0zdbmn7mzRFVZ2f7B8XRST6bTuq6bpvnnhw/A2dmZSFFVlYi0XQfE2O9tP+TOElVl"
    "ZfsHx1VV1XVdVZX3/uzsDJh9mYlIXhSA2cCNuLv1HXeWqCp/xP7BcVVV5VrpvZ/P50AIQVK5FvsoqQB72w/5GhJV5Q96+fqXIi+8"
    "92ERADMTETOLfXSZ29t+yFeSqCr3VaKq3FeJqnJfJarKfZWoKvdVoqrcV4mqcl8lqsp9lagq99X/Aa26bXFgH8vkAAAAAElFTkSu"
    "QmCC"
)
"""A second print's navy back on a dark felt under a dim lamp, as the pipeline normalised it (26 mm square
at PLANE_PX_PER_MM, the back's middle; burnt hard set 20261134, session 13, frame 6, cell 29): the reference
took its body for the felt, leaving its cross, dimmed, and a dark rim about it."""


def _paste(
    plane: numpy.typing.NDArray[numpy.uint8], item: str, patch: numpy.typing.NDArray[numpy.uint8]
) -> None:
    x, y = (round(v * PLANE_PX_PER_MM) for v in LAYOUT.items[item].centre_mm)
    half = patch.shape[0] // 2
    plane[y - half : y + half, x - half : x + half] = patch


def _others() -> dict[str, numpy.typing.NDArray[numpy.uint8]]:
    return {
        "cell:0": piece_face("down", PLANE_PX_PER_MM, edition="second-print"),
        "cell:3": piece_face("white-3-left", PLANE_PX_PER_MM),
    }


def test_a_back_whose_body_was_taken_for_the_table_is_read_down() -> None:
    encoded = numpy.frombuffer(base64.b64decode(TAKEN_BACK_PNG), numpy.uint8)
    patch = numpy.asarray(cv2.imdecode(encoded, cv2.IMREAD_COLOR), numpy.uint8)
    plane = neutral_plane(_others())
    _paste(plane, "cell:12", patch)
    cells = _cell_colours(plane, LAYOUT)
    assert cells.lit is not None
    assert cells.lit[cells.ids.index("cell:12")] < DARK_WHITE_LIT
    items = MinotaurusRecogniser().read(plane, LAYOUT, None).items
    assert items["cell:12"] == "down"  # white-4-left without the rule
    assert items["cell:0"] == "down"
    assert items["cell:3"] == "white-3-left"  # a white face, lighter than the table, stays white


def test_a_dark_greyish_blue_face_is_not_read_white() -> None:
    face = piece_face("blue-4-left", PLANE_PX_PER_MM).astype(numpy.float32)
    # A dim lamp on a blue face whose colour a glare's cast greyed: chroma under PALE_CHROMA.
    face = numpy.clip((face * 0.3 + face.mean(axis=2, keepdims=True) * 0.7) * 0.4, 0, 255).astype(numpy.uint8)
    plane = neutral_plane({"cell:12": face, **_others()})
    items = MinotaurusRecogniser().read(plane, LAYOUT, None).items
    assert items["cell:12"] == "blue-4-left"  # white-4-left without the rule
    assert items["cell:3"] == "white-3-left"
