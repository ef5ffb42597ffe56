"""The protobuf and gRPC modules of ``whistle.v1``.

An installed kit ships them: ``pip install ./bots/python`` generates
``whistle_pb2.py`` (messages), ``whistle_pb2.pyi`` (type hints for editors)
and ``whistle_pb2_grpc.py`` (service stubs) from ``whistle.proto`` at build
time (setup.py, with the grpcio-tools pyproject.toml pins) into
``whistle_bot/_generated/``; at run time only grpcio and protobuf are needed.

A kit used straight from a checkout (``bots/python`` on ``sys.path``, not
installed) has no such modules; then, if ``grpc_tools`` (the grpcio-tools
package) is importable, they are generated on first use into a cache
directory, whose name is a hash of the proto file and of the installed
grpcio, grpcio-tools and protobuf versions: ``$WHISTLE_BOT_CACHE`` if set,
else the user's cache directory (``$XDG_CACHE_HOME`` or ``~/.cache`` on
Linux, ``~/Library/Caches`` on macOS, ``%LOCALAPPDATA%`` on Windows) under
``whistle-bot``, else the system's temporary directory. Several processes
starting at once are safe: each generates into a private directory and
renames it into place.

Either way the modules are imported as ``whistle_bot._generated.whistle_pb2``
and ``whistle_bot._generated.whistle_pb2_grpc``: nothing is added to
``sys.path``, and no top-level ``whistle`` package is created.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import re
import shutil
import sys
import tempfile
import types
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_RELATIVE = Path("whistle", "v1", "whistle.proto")
_CANDIDATES = (
    _PACKAGE.parent.parent.parent / "proto" / _RELATIVE,  # a checkout
    _PACKAGE / "proto" / _RELATIVE,  # an installed package
)
_GENERATED = __name__.rsplit(".", 1)[0] + "._generated"

_MISSING = (
    "whistle_bot needs the packages grpcio and protobuf, and its generated "
    "protocol modules. Install the kit with `pip install ./bots/python` (from "
    "the repository root), or `pip install -e ./bots/python` (an editable "
    "install generates them in the checkout; install it again after "
    "proto/whistle/v1/whistle.proto changes); to use it from the checkout "
    "without installing, install `grpcio protobuf grpcio-tools` "
    "(grpcio-tools generates the modules)."
)
_STAMP = "# proto sha256: "


class StubError(RuntimeError):
    """The protocol modules could not be generated or imported."""


def proto_path() -> Path:
    """The whistle.proto this kit compiles."""
    for candidate in _CANDIDATES:
        if candidate.is_file():
            return candidate
    raise StubError(
        "cannot find whistle.proto; looked in: "
        + ", ".join(str(c) for c in _CANDIDATES)
    )


def _version(module: str) -> str:
    try:
        from importlib.metadata import version

        return version(module)
    except Exception:  # not installed as a distribution: fall back to the module
        try:
            return str(importlib.import_module(module.replace("-", "_")).__version__)
        except Exception:
            return "unknown"


def _cache_root() -> Path:
    env = os.environ.get("WHISTLE_BOT_CACHE")
    if env:
        return Path(env)
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"]) / "whistle-bot" / "cache"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "whistle-bot"
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "whistle-bot"


def _key(proto: bytes) -> str:
    h = hashlib.sha256(proto)
    for dist in ("grpcio", "grpcio-tools", "protobuf"):
        h.update(b"\0" + dist.encode() + b"=" + _version(dist).encode())
    return h.hexdigest()[:16]


def _generate(proto: Path, into: Path) -> None:
    """Runs protoc (from grpc_tools) on ``proto`` and writes the three
    modules directly in ``into``."""
    try:
        from grpc_tools import protoc
    except ImportError as e:
        raise StubError(_MISSING) from e
    include = proto.parents[len(_RELATIVE.parts) - 1]
    out = into / "out"
    out.mkdir()
    args = [
        "grpc_tools.protoc",
        f"-I{include}",
        f"--python_out={out}",
        f"--grpc_python_out={out}",
        f"--pyi_out={out}",
    ]
    try:  # the well-known types, should the proto ever import one
        from importlib.resources import files

        args.append(f"-I{files('grpc_tools') / '_proto'}")
    except Exception:
        pass
    args.append(str(proto))
    if protoc.main(args) != 0:
        raise StubError(f"protoc failed on {proto} (its messages are above)")
    generated = out / _RELATIVE.parent
    for name in ("whistle_pb2.py", "whistle_pb2.pyi"):
        shutil.move(str(generated / name), str(into / name))
    # The service module imports the messages as `whistle.v1.whistle_pb2`;
    # make that a relative import so that no top-level `whistle` is needed.
    grpc_src = (generated / "whistle_pb2_grpc.py").read_text(encoding="utf-8")
    grpc_src, n = re.subn(
        r"^from whistle\.v1 import whistle_pb2 as ",
        "from . import whistle_pb2 as ",
        grpc_src,
        flags=re.MULTILINE,
    )
    if n != 1:
        raise StubError("unexpected output from grpc_tools: cannot fix its import")
    (into / "whistle_pb2_grpc.py").write_text(grpc_src, encoding="utf-8")
    (into / "__init__.py").write_text(
        f"# Generated by whistle_bot from {proto.name}; safe to delete.\n"
        f"{_STAMP}{hashlib.sha256(proto.read_bytes()).hexdigest()}\n",
        encoding="utf-8",
    )
    shutil.rmtree(out)


def stub_dir() -> Path:
    """The directory holding the generated modules, generating them if needed."""
    proto = proto_path()
    key = _key(proto.read_bytes())
    roots = [_cache_root(), Path(tempfile.gettempdir()) / "whistle-bot"]
    errors = []
    for root in roots:
        final = root / f"stubs-{key}"
        if (final / "whistle_pb2_grpc.py").is_file():
            return final
        try:
            root.mkdir(parents=True, exist_ok=True)
            tmp = Path(tempfile.mkdtemp(prefix=".tmp-", dir=root))
        except OSError as e:
            errors.append(f"{root}: {e}")
            continue
        try:
            _generate(proto, tmp)
            os.chmod(tmp, 0o755)  # mkdtemp made it private
            try:
                os.rename(tmp, final)
            except OSError:
                # Another process got there first: use its copy.
                if not (final / "whistle_pb2_grpc.py").is_file():
                    raise
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        return final
    raise StubError("cannot write the generated modules: " + "; ".join(errors))


def shipped() -> bool:
    """Whether the package ships its generated modules (an installed kit,
    or an editable install, whose modules were generated in the checkout:
    those count only while they match the checkout's proto)."""
    generated = _PACKAGE / "_generated"
    if not (generated / "whistle_pb2_grpc.py").is_file():
        return False
    checkout = _CANDIDATES[0]
    if not checkout.is_file():
        return True
    try:
        stamp = (generated / "__init__.py").read_text(encoding="utf-8")
    except OSError:
        return False
    return _STAMP + hashlib.sha256(checkout.read_bytes()).hexdigest() in stamp


def load() -> tuple[types.ModuleType, types.ModuleType]:
    """Imports and returns the modules ``(whistle_pb2, whistle_pb2_grpc)``:
    the shipped ones, else (a checkout) generated on first use."""
    if _GENERATED not in sys.modules and not shipped():
        try:
            import google.protobuf  # noqa: F401
            import grpc  # noqa: F401
        except ImportError as e:
            raise StubError(_MISSING) from e
        package = types.ModuleType(_GENERATED)
        package.__path__ = [str(stub_dir())]
        package.__doc__ = "Modules generated from whistle.proto."
        sys.modules[_GENERATED] = package
    pb2 = importlib.import_module(_GENERATED + ".whistle_pb2")
    pb2_grpc = importlib.import_module(_GENERATED + ".whistle_pb2_grpc")
    return pb2, pb2_grpc
