"""Texts and helpers for each game, for clients."""
