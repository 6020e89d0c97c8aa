"""Tests of the King's Life engine, bot and texts."""
