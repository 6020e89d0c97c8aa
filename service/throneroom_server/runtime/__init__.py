"""The process shell: configuration, server assembly, process start-up,
the embedded server, the command line (docs/architecture.md).

Nothing is imported here: ``python -m throneroom_server.runtime.main`` sets
grpc's environment before anything imports grpc."""
