"""One recogniser per game, each in <game>.py, registered with companion.vision.base on import."""
