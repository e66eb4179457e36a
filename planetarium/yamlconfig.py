"""Reading configuration files: YAML through ``yaml.safe_load`` only, a mapping at the top.

Every runnable (dataset generation, evaluation, fine-tuning) reads its typed config through
this one function, so no code path can ever ``yaml.load`` a file or accept a list where a
mapping belongs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def read_yaml_mapping(path: str | Path, error: type[Exception]) -> dict[str, Any]:
    """The top-level mapping of the YAML file at ``path``; problems raise ``error`` with the path."""
    import yaml

    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except OSError as err:
        raise error(f"{path}: cannot read config: {err.strerror or err}") from err
    except yaml.YAMLError as err:
        raise error(f"{path}: cannot read config, not valid YAML: {err}") from err
    if not isinstance(data, dict):
        raise error(f"{path}: expected a mapping at the top level")
    return data
