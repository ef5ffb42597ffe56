"""`python -m whistle_bot`: shows where the kit's protocol modules come from.

An installed kit ships them (generated when the package was built); a kit
run from a checkout generates them on first use, so this also serves to
prepare a machine (or a container image) before the bots start.
"""

from pathlib import Path

from . import _stubs, pb

print(f"proto  {_stubs.proto_path()}")
if _stubs.shipped():
    print(f"stubs  {Path(pb.__file__).parent} (shipped with the package)")
else:
    print(f"stubs  {_stubs.stub_dir()} (generated from the checkout's proto)")
print(f"module {pb.__name__}")
