"""gRPC reflection as stock clients speak it: Python's grpcio-reflection
client asks with the v1alpha protocol (as grpcurl 1.8 does), and the referee
answers it as well as v1."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import grpc  # noqa: E402
from google.protobuf.descriptor_pool import DescriptorPool  # noqa: E402
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import (  # noqa: E402
    ProtoReflectionDescriptorDatabase,
)

from test_match import Processes, start_referee  # noqa: E402


def test_stock_reflection_client_lists_and_describes_the_services(tmp_path):
    procs = Processes(tmp_path)
    try:
        address = start_referee(procs)
        with grpc.insecure_channel(address) as channel:
            db = ProtoReflectionDescriptorDatabase(channel)
            services = set(db.get_services())
            assert {"whistle.v1.Referee", "whistle.v1.Admin", "grpc.health.v1.Health"} <= services, services
            pool = DescriptorPool(db)
            referee = pool.FindServiceByName("whistle.v1.Referee")
            assert {m.name for m in referee.methods} >= {"Subscribe", "Play"}
            hello = pool.FindMessageTypeByName("whistle.v1.Hello")
            assert {"token", "bot_name", "protocol"} <= {f.name for f in hello.fields}
    finally:
        procs.close()
