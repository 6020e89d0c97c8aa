"""Transports: the gRPC servicer, its error mapping and interceptors."""
