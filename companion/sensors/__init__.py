"""Sensors around the bull horn figure: beam edges in, toss verdicts out."""
