"""A torn tile is made whole where its cloth shows too little texture to tell it by, not only where the
texture is there and disagrees (burnt 20261140 Hornochsen linen: a linen's weave is below TEXTURED over
most of the cloth, and tiles torn around their tens digits, 62 read 2 and 29 empty, got their hulls back
on a fifth of their faces). Drawn here with numpy, not by the generator."""

from __future__ import annotations

import numpy

from companion.vision._reference_texture import TableTexture, pieces_whole


def test_where_the_reference_shows_no_texture_the_texture_is_unclear() -> None:
    rng = numpy.random.default_rng(3)
    reference = numpy.full((40, 80, 3), 150.0, numpy.float32)
    # A weave on the left half only; the right half as plain as a linen's weave between its slubs.
    reference[:, :40] += rng.normal(0.0, 20.0, (40, 40, 1)).astype(numpy.float32)
    texture = TableTexture()
    texture.remember(reference)
    hidden = texture.hidden(reference.copy())  # the table itself, unchanged
    assert not hidden.unkept[:, 5:35].any()  # textured and its own: clear, on both masks
    assert not hidden.unclear[5:35, 5:35].any()
    assert hidden.unclear[5:35, 50:75].all()  # no texture to tell by: unclear, though unkept is not
    assert not hidden.unkept[:, 50:75].any()


def test_a_torn_tile_is_made_whole_where_the_cloth_is_plain() -> None:
    size = (60, 80)
    foreground = numpy.zeros(size, numpy.uint8)
    # A tile 11 mask pixels wide (22 mm), torn into a frame's three sides and its units digit.
    foreground[5:16, 5:7] = foreground[5:7, 5:16] = foreground[14:16, 5:16] = 1
    foreground[9:12, 11:14] = 1
    # The cloth's texture disagrees somewhere (a textured cloth), but under the tile it shows none.
    unkept = numpy.zeros(size, numpy.uint8)
    unkept[40:50, 60:70] = 1
    unclear = numpy.ones(size, numpy.uint8)
    unclear[30:, :] = 0  # where the cloth shows its own texture, the table stays
    whole = pieces_whole(foreground, unkept, unclear)
    assert whole[5:15, 5:15].all()  # its face within the hull's rim
    # The hull's rim, where a blurred outline's hull overreaches, is left where nothing tells.
    assert not whole[7:14, 15].any()
    unkept[7:14, 15] = 1  # where the texture tells, the rim too
    assert pieces_whole(foreground, unkept, unclear)[5:16, 5:16].all()
    unkept[7:14, 15] = 0
    assert numpy.array_equal(whole[16:, :], foreground[16:, :])
    # Without the plain cloth's unclear mask only what disagrees is added: the tile stays torn.
    assert not pieces_whole(foreground, unkept)[9:12, 8].any()
    # On a plain cloth (nothing textured and disagreeing anywhere) nothing is added (felt's specks).
    assert numpy.array_equal(pieces_whole(foreground, numpy.zeros(size, numpy.uint8), unclear), foreground)
