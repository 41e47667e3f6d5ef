"""The simulated horn: each kind of toss has the physics of hardware/beams.md and plays as node frames."""

from __future__ import annotations

import itertools

import pytest

from companion.sensors.pinmap import PinMap
from companion.sensors.protocol import Edge, Frame, FrameDecoder, render_node_output
from companion.sensors.simhorn import (
    FAILURE_KINDS,
    FOREVER,
    SUCCESS_KINDS,
    UNDECIDABLE,
    SimToss,
    SimulatedHorn,
)

MS = 1000
KINDS = list(SUCCESS_KINDS) + list(FAILURE_KINDS)


def sample(pinmap: PinMap, kind: str, n: int = 60) -> list[SimToss]:
    horn = SimulatedHorn(pinmap, seed=KINDS.index(kind), glitch_rate=1.0)
    return [horn.toss(kind=kind) for _ in range(n)]


def tip_passes(toss: SimToss, pinmap: PinMap) -> list[tuple[int, int]]:
    tips = {name for horn in pinmap.horns for name in pinmap.tip_beams(horn)}
    return [(o.start_us, o.end_us) for o in toss.occlusions if o.beam in tips]


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_has_its_ground_truth_and_only_sub_millisecond_glitches(pinmap: PinMap, kind: str) -> None:
    for toss in sample(pinmap, kind):
        assert toss.success == (kind in SUCCESS_KINDS) and toss.decidable == (kind not in UNDECIDABLE)
        assert all(g.end_us - g.start_us < 1 * MS for g in toss.glitches)
        assert all(o.end_us - o.start_us >= 1 * MS for o in toss.occlusions)
        edges = toss.edges()
        assert [e.t_us for e in edges] == sorted(e.t_us for e in edges)
        for name in pinmap.names:  # each beam alternates blocked, clear, blocked ...
            states = [e.blocked for e in edges if e.beam == name]
            assert states[:1] in ([], [True]), (kind, name, states)
            assert all(a != b for a, b in itertools.pairwise(states)), (kind, name, states)


@pytest.mark.parametrize("kind", ["ringer", "leaner", "rattler", "tip_hanger"])
def test_a_ring_over_a_horn_passes_its_tip_then_rests_on_a_base_beam(pinmap: PinMap, kind: str) -> None:
    for toss in sample(pinmap, kind):
        assert toss.horn is not None
        (tip_start, tip_end), *_ = tip_passes(toss, pinmap)
        settle = toss.settle_start_us(pinmap)
        assert settle is not None and settle > tip_end
        lasting = [o for o in toss.occlusions if o.end_us == FOREVER]
        assert lasting and all(o.beam in pinmap.base_beams(toss.horn) for o in lasting)
        if kind == "ringer":  # falling past the tip beam at 2-3 m/s: a few milliseconds
            assert 2 * MS <= tip_end - tip_start <= 5 * MS
        if kind == "tip_hanger":  # hanging on the tip for over 3 s before sliding down
            assert tip_end - tip_start >= 3000 * MS


def test_bounce_offs_clear_within_a_few_hundred_milliseconds(pinmap: PinMap) -> None:
    for toss in sample(pinmap, "bounce_off"):
        assert toss.occlusions and all(o.end_us - o.start_us <= 400 * MS for o in toss.occlusions)


def test_rings_beside_a_horn_block_a_base_beam_without_passing_a_tip(pinmap: PinMap) -> None:
    for toss in sample(pinmap, "beside"):
        assert not tip_passes(toss, pinmap)
        assert any(o.end_us == FOREVER for o in toss.occlusions)


def test_skill_is_the_share_of_rings_landing_over_a_horn(pinmap: PinMap) -> None:
    horn = SimulatedHorn(pinmap, seed=2)
    for skill in (0.2, 0.8):
        hits = sum(horn.toss(skill).success for _ in range(2000))
        assert abs(hits / 2000 - skill) < 0.04


def test_a_toss_rendered_as_node_frames_decodes_to_the_same_edges(pinmap: PinMap) -> None:
    toss = SimulatedHorn(pinmap, seed=5, glitch_rate=1.0).toss(kind="rattler")
    edges = toss.edges(offset_us=1_000_000, source="node")
    frames = FrameDecoder().feed(render_node_output(edges, pinmap.names))
    decoded = [f.message for f in frames if isinstance(f, Frame) and isinstance(f.message, Edge)]
    assert [(m.beam, m.blocked, m.t_us) for m in decoded] == [(e.beam, e.blocked, e.t_us) for e in edges]
