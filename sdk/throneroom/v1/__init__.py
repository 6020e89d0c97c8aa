"""Generated protobuf and gRPC modules of the throneroom.v1 contract."""
