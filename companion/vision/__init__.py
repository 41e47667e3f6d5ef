"""The camera: frame sources, calibration to a top-down plane, recognisers, teach mode and the watcher."""
