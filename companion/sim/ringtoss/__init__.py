"""The ring toss as physics: the world the toss judge is measured against.

- figure.py: the horn figure, its collar, beams and knock sensor, and the ring (hardware/figure.json,
  the light paths in hardware/pinmap.json).
- physics.py: the ring as a rigid body thrown at the figure (MuJoCo).
- optics.py: how much of each beam's light the cord blocks, the receivers, the knock sensor.
- tosses.py: a player's throw, the true outcome, and what every sensor reports.
- horn.py: tosses on demand for the simulated table (`companion run --simulate`).

Nothing here imports the judge or anything it uses to decide: the simulator and
what it tests share data files only.
"""
