"""Tests of The King Is Dead engine, its texts and its bot."""
