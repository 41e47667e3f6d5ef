"""Minotaur Companion: a referee for bull-and-Minotaur board games on a Raspberry Pi."""

__version__ = "0.1.0"
