"""Testing support: the snapshot pytest plugin and its syrupy extensions."""
