"""Build hooks: ship a copy of the protocol file inside the package.

The metadata lives in pyproject.toml. This file only makes sure that
``whistle_bot/proto/whistle/v1/whistle.proto`` is part of every wheel and sdist,
copied from the repository's ``proto/`` directory (the single source of truth),
so that an installed kit can generate its stubs without the repository.
Nothing generated from the proto is shipped: the stubs are generated on first
import (see whistle_bot/_stubs.py).
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


class BuildPyWithProto(build_py):
    def run(self):
        super().run()
        copy_proto(self.build_lib)


class SdistWithProto(sdist):
    def make_release_tree(self, base_dir, files):
        super().make_release_tree(base_dir, files)
        copy_proto(base_dir)


setup(cmdclass={"build_py": BuildPyWithProto, "sdist": SdistWithProto})
