"""Throneroom server: rules engines, stores and the gRPC service."""

__version__ = "0.1.0"
