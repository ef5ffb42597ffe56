"""Build hooks: ship the protocol file and the modules generated from it.

The metadata lives in pyproject.toml. This file makes sure that every wheel
holds ``whistle_bot/proto/whistle/v1/whistle.proto`` (copied from the
repository's ``proto/`` directory, the single source of truth) and
``whistle_bot/_generated/`` (``whistle_pb2.py``, ``whistle_pb2.pyi``,
``whistle_pb2_grpc.py``), generated from it at build time with the
grpcio-tools that pyproject.toml pins as a build requirement. An editable
install (``pip install -e bots/python``) generates them in place, into
``whistle_bot/_generated/`` of the checkout. An installed kit needs only
grpcio and protobuf at run time.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

HERE = Path(__file__).resolve().parent
IN_PACKAGE = Path("whistle_bot", "proto", "whistle", "v1", "whistle.proto")
IN_REPO = HERE.parent.parent / "proto" / "whistle" / "v1" / "whistle.proto"


def proto_source() -> Path:
    for candidate in (IN_REPO, HERE / IN_PACKAGE):
        if candidate.is_file():
            return candidate
    raise SystemExit(
        f"whistle-bot: cannot find the protocol file (looked for {IN_REPO}). "
        "Install from a whistle checkout (pip install ./bots/python) with "
        "pip 21.3 or newer, which builds in place."
    )


def copy_proto(root: str) -> None:
    target = Path(root) / IN_PACKAGE
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(proto_source(), target)


def generate_modules(root: str) -> None:
    """Generates the protocol modules into ``root/whistle_bot/_generated``
    with the kit's own generator (whistle_bot/_stubs.py, loaded by path: the
    package itself imports grpc, which the build does not need)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("_whistle_stubs", HERE / "whistle_bot" / "_stubs.py")
    stubs = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(stubs)
    target = Path(root) / "whistle_bot" / "_generated"
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    stubs._generate(proto_source(), target)


class BuildPyWithProto(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            # `pip install -e bots/python`: the package is imported from this
            # folder, so the modules are generated here (whistle_bot/_generated
            # is ignored by git); the proto is read from the checkout.
            generate_modules(str(HERE))
        else:
            copy_proto(self.build_lib)
            generate_modules(self.build_lib)


class SdistWithProto(sdist):
    def make_release_tree(self, base_dir, files):
        super().make_release_tree(base_dir, files)
        copy_proto(base_dir)


setup(cmdclass={"build_py": BuildPyWithProto, "sdist": SdistWithProto})
