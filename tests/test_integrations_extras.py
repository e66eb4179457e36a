"""The integrations are extras: without their stack, one line says which extra to install.

Runs everywhere: each check blocks the stack's import in a fresh interpreter (``sys.modules``
entry ``None``), as if it were not installed.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

CHECK = """
import sys
for name in {blocked!r}:
    sys.modules[name] = None
from planetarium.errors import MissingExtraError
try:
    {statement}
except MissingExtraError as err:
    print(err)
else:
    print("no error")
"""


def _message(blocked: tuple[str, ...], statement: str) -> str:
    code = CHECK.format(blocked=blocked, statement=statement)
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return run.stdout.strip()


@pytest.mark.parametrize(("blocked", "statement", "extra"), [
    (("verifiers",), "import planetarium.integrations.verifiers", "verifiers"),
    (("verifiers",), "import planetarium_verifiers", "verifiers"),
    (("ray",), "from planetarium.integrations.ray import grade_dataset; grade_dataset(None)", "ray"),
])
def test_a_missing_stack_names_its_extra_in_one_line(blocked, statement, extra):
    message = _message(blocked, statement)
    assert "\n" not in message
    assert message.endswith(f"[{extra}]'") and "pip install '" in message


def test_the_ray_module_imports_without_ray():
    assert _message(("ray",), "import planetarium.integrations.ray") == "no error"

