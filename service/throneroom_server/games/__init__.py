"""Pure rules engines. Nothing here does I/O, reads a clock or imports grpc/redis."""
