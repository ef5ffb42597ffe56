"""`python -m whistle_bot`: shows where the kit's generated modules are.

Generates them first if needed, so it also serves to prepare a machine (or a
container image) before the bots start. Point an editor's extra paths at the
printed directory for completion and type hints (whistle_pb2.pyi).
"""

from . import _stubs, pb

print(f"proto  {_stubs.proto_path()}")
print(f"stubs  {_stubs.stub_dir()}")
print(f"module {pb.__name__}")
