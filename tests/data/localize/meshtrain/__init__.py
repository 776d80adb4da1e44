"""meshtrain: mesh-parallel training in a few hundred lines."""
__version__ = "0.2.0"
