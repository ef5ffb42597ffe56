import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def whistle_bin():
    """The whistle binary: $WHISTLE_BIN_DIR/whistle, else target/debug's,
    else on PATH. Tests that compare with the CLI skip without one."""
    candidates = []
    if os.environ.get("WHISTLE_BIN_DIR"):
        candidates.append(Path(os.environ["WHISTLE_BIN_DIR"]) / "whistle")
    candidates.append(ROOT / "target" / "debug" / "whistle")
    for c in candidates:
        if c.is_file():
            return str(c)
    found = shutil.which("whistle")
    if found:
        return found
    pytest.skip("no whistle binary (build it with `cargo build --workspace --bins`)")
