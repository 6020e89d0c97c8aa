"""Throneroom SDK: clients, bots and tools for the Throneroom game service."""

__version__ = "0.1.0"
