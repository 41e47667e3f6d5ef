"""A ring thrown at the horn figure, as a rigid body: MuJoCo integrates it, contacts and friction included.

The ring is a rigid torus (a closed chain of capsules along its centre line);
the figure is the head (a box standing on the table), the collar's rim and
the posts of its tall beams, and two leaning, tapering horns (convex cones).
MuJoCo resolves every contact with Coulomb friction, so rings rattle, lean,
hang on a tip and slide off as the geometry and friction make them; nothing
here knows what a toss is meant to turn out to be.

The trajectory is kept at every step (0.5 ms), so the light model
(optics.py) can find when the cord enters and leaves each beam to a fraction
of a millisecond.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from typing import Any

import numpy

from companion.sim.ringtoss.figure import Figure

STEP_S = 0.0005
REST_SPEED_MM_S = 4.0
REST_SPIN_RAD_S = 0.15
REST_HOLD_S = 0.15
"""At rest: slower than these for this long (a ring sliding off a tip moves faster long before)."""
CAPSULES = 24


@dataclasses.dataclass(frozen=True)
class Throw:
    """The ring as it comes in, 150 mm or more above the head."""

    position: tuple[float, float, float]
    """Centre, mm."""
    velocity: tuple[float, float, float]
    """m/s."""
    tilt_deg: float
    """Between the ring's plane and the horizontal."""
    tilt_azimuth: float
    """Radians: the direction of the tilt's axis."""
    spin: tuple[float, float, float]
    """Angular velocity, rad/s (world frame)."""


@dataclasses.dataclass
class Trajectory:
    t: numpy.ndarray
    """Seconds since the throw's start, one entry per step."""
    position: numpy.ndarray
    """(T, 3) ring centre, mm."""
    quat: numpy.ndarray
    """(T, 4) orientation (w, x, y, z)."""
    velocity: numpy.ndarray
    """(T, 3) centre velocity, m/s."""
    rest_s: float | None
    """When the ring came to rest for good (None: still moving when the simulation ended)."""
    touched_figure: bool
    """Did the ring touch the head, collar, posts or a horn?"""

    @property
    def final_position(self) -> numpy.ndarray:
        return numpy.asarray(self.position[-1])

    @property
    def final_quat(self) -> numpy.ndarray:
        return numpy.asarray(self.quat[-1])


def _cone_vertices(base_radius: float, tip_radius: float, length: float, sides: int = 24) -> str:
    out = []
    for z, r in ((0.0, base_radius), (length, tip_radius)):
        for k in range(sides):
            a = 2 * math.pi * k / sides
            out += [r * math.cos(a), r * math.sin(a), z]
    return " ".join(f"{v / 1000:.6f}" for v in out)


def _axis_quat(axis: tuple[float, float, float]) -> str:
    """Quaternion turning +z onto `axis`."""
    ax, ay, az = axis
    half = math.acos(max(-1.0, min(1.0, az))) / 2
    norm = math.hypot(ax, ay)
    if norm < 1e-12:
        return "1 0 0 0"
    return f"{math.cos(half):.8f} {-ay / norm * math.sin(half):.8f} {ax / norm * math.sin(half):.8f} 0"


def model_xml(figure: Figure) -> str:
    mm = 1 / 1000
    ring = figure.ring
    hx, hy = figure.head_half_size
    depth = -figure.table_z
    capsules = []
    for k in range(CAPSULES):
        a0, a1 = 2 * math.pi * k / CAPSULES, 2 * math.pi * (k + 1) / CAPSULES
        p0 = (ring.centre_radius * math.cos(a0) * mm, ring.centre_radius * math.sin(a0) * mm)
        p1 = (ring.centre_radius * math.cos(a1) * mm, ring.centre_radius * math.sin(a1) * mm)
        capsules.append(
            f'<geom class="ring" type="capsule" size="{ring.cord_radius * mm:.6f}" '
            f'fromto="{p0[0]:.6f} {p0[1]:.6f} 0 {p1[0]:.6f} {p1[1]:.6f} 0" '
            f'mass="{ring.mass_g / 1000 / CAPSULES:.8f}"/>'
        )
    rim_h, rim_w = figure.rim_height * mm, figure.rim_width * mm
    rims = [
        (0, hy * mm - rim_w / 2, hx * mm, rim_w / 2),
        (0, -hy * mm + rim_w / 2, hx * mm, rim_w / 2),
        (hx * mm - rim_w / 2, 0, rim_w / 2, hy * mm),
        (-hx * mm + rim_w / 2, 0, rim_w / 2, hy * mm),
    ]
    rim_xml = "".join(
        f'<geom class="figure" type="box" size="{sx:.6f} {sy:.6f} {rim_h / 2:.6f}" '
        f'pos="{x:.6f} {y:.6f} {rim_h / 2:.6f}"/>'
        for x, y, sx, sy in rims
    )
    posts = "".join(
        f'<geom class="figure" type="cylinder" size="{figure.post_radius * mm:.6f} {h * mm / 2:.6f}" '
        f'pos="{x * mm:.6f} {y * mm:.6f} {h * mm / 2:.6f}"/>'
        for x, y, h in figure.posts()
    )
    horns = "".join(
        f'<geom class="figure" name="horn_{h.name}" type="mesh" mesh="horn" '
        f'pos="{h.base[0] * mm:.6f} {h.base[1] * mm:.6f} 0" quat="{_axis_quat(h.axis)}"/>'
        for h in figure.horns
    )
    horn = figure.horns[0]
    return f"""<mujoco model="horn figure">
<option timestep="{STEP_S}" gravity="0 0 -9.81" cone="elliptic" impratio="4"/>
<default>
  <geom solref="0.002 1" solimp="0.95 0.99 0.0005" condim="4"/>
  <default class="figure"><geom friction="{figure.friction_figure} 0.002 0.0001"/></default>
  <default class="ring"><geom friction="0.05 0.002 0.0001"/></default>
</default>
<asset><mesh name="horn" vertex="{_cone_vertices(horn.base_radius, horn.tip_radius, horn.length)}"/></asset>
<worldbody>
  <geom name="table" type="plane" size="2 2 0.1" pos="0 0 {-depth * mm:.6f}"
    friction="{figure.friction_table} 0.002 0.0001"/>
  <geom class="figure" name="head" type="box" size="{hx * mm:.6f} {hy * mm:.6f} {depth * mm / 2:.6f}"
    pos="0 0 {-depth * mm / 2:.6f}"/>
  {rim_xml}{posts}{horns}
  <body name="ring" pos="0 0 0.3"><freejoint/>{"".join(capsules)}</body>
</worldbody>
</mujoco>"""


@functools.lru_cache(maxsize=8)
def _model(xml: str) -> Any:
    import mujoco

    return mujoco.MjModel.from_xml_string(xml)


def rotation_matrices(quat: numpy.ndarray) -> numpy.ndarray:
    """(T, 4) quaternions (w, x, y, z) to (T, 3, 3) rotation matrices (ring frame to world)."""
    q = quat / numpy.linalg.norm(quat, axis=1, keepdims=True)
    w, x, y, z = q[:, 0], q[:, 1], q[:, 2], q[:, 3]
    return numpy.stack(
        [
            numpy.stack([1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)], axis=-1),
            numpy.stack([2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)], axis=-1),
            numpy.stack([2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)], axis=-1),
        ],
        axis=1,
    )


def rotation_matrix(quat: numpy.ndarray) -> numpy.ndarray:
    matrices: numpy.ndarray = rotation_matrices(numpy.asarray(quat, dtype=float)[None, :])
    return numpy.asarray(matrices[0])


def _quat(tilt_deg: float, azimuth: float) -> numpy.ndarray:
    half = math.radians(tilt_deg) / 2
    return numpy.array(
        [math.cos(half), math.cos(azimuth) * math.sin(half), math.sin(azimuth) * math.sin(half), 0.0]
    )


def simulate(figure: Figure, throw: Throw, max_s: float = 14.0) -> Trajectory:
    """Integrate the throw until the ring has been at rest for a while (or `max_s` passed)."""
    import mujoco

    model = _model(model_xml(figure))
    data = mujoco.MjData(model)
    data.qpos[0:3] = numpy.asarray(throw.position) / 1000
    data.qpos[3:7] = _quat(throw.tilt_deg, throw.tilt_azimuth)
    data.qvel[0:3] = throw.velocity
    data.qvel[3:6] = throw.spin
    ring_geoms = {i for i in range(model.ngeom) if model.geom_bodyid[i] == model.nbody - 1}
    table = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_GEOM, "table")
    steps = round(max_s / STEP_S)
    position = numpy.empty((steps, 3))
    quat = numpy.empty((steps, 4))
    velocity = numpy.empty((steps, 3))
    hold = round(REST_HOLD_S / STEP_S)
    still = 0
    touched = False
    n = 0
    for n in range(steps):
        mujoco.mj_step(model, data)
        position[n] = data.qpos[0:3]
        quat[n] = data.qpos[3:7]
        velocity[n] = data.qvel[0:3]
        if not touched and data.ncon:
            for c in data.contact[: data.ncon]:
                other = c.geom2 if c.geom1 in ring_geoms else c.geom1
                if other != table and other not in ring_geoms:
                    touched = True
                    break
        slow = (
            numpy.dot(data.qvel[0:3], data.qvel[0:3]) < (REST_SPEED_MM_S / 1000) ** 2
            and numpy.dot(data.qvel[3:6], data.qvel[3:6]) < REST_SPIN_RAD_S**2
        )
        still = still + 1 if slow else 0
        if still >= hold * 2:
            break
    count = n + 1
    rest_s = (count - still) * STEP_S if still >= hold else None
    return Trajectory(
        numpy.arange(1, count + 1) * STEP_S,
        position[:count] * 1000,
        quat[:count],
        velocity[:count].copy(),
        rest_s,
        touched,
    )
