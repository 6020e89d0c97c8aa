"""Tests of the Kill the King foundation: its data, its board and its contract."""
