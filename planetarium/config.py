"""One way to read configuration: a YAML file, ``--set`` overrides, a typed frozen dataclass.

Dataset generation, evaluation and fine-tuning all load their configuration here, so they share
one set of rules:

* **Reading** goes through PyYAML's safe loader only (its C build when installed: 4x faster on
  ``data/full.yaml``, the same values); a file over :data:`MAX_CONFIG_BYTES`, or one
  whose aliases expand past :data:`MAX_CONFIG_NODES` values (a "billion laughs" file is a few
  lines long), is refused before anything walks it; the top level must be a mapping.
* **Overrides** are ``key.path=value`` (the CLIs' ``--set``); the value is read as YAML, so
  ``5``, ``true``, ``[a, b]`` keep their types, and it is checked like the file's own values.
* **Building** is strict: an unknown key is an error (with the closest valid key), a missing
  required key is an error, every value must have its field's declared type (``bool`` is not an
  ``int``, ``"3"`` is not a number), and per-field checks (:func:`setting`) run with the key's
  full dotted path in the message.

Every problem is a :class:`ConfigError` whose one-line message names the file, the key and what
was expected.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from enum import Enum
from pathlib import Path
from typing import Any, TypeVar

from .errors import PlanetariumError
from .jsonl import JsonLineError, read_capped

T = TypeVar("T")

#: Configuration files are small; anything larger is a mistake (or an attack).
MAX_CONFIG_BYTES = 2_000_000
#: Values a configuration may hold once YAML aliases are expanded (data/full.yaml: ~130,000).
MAX_CONFIG_NODES = 1_000_000

#: A check returns ``None`` when the value is fine, otherwise what was expected.
Check = Callable[[Any], "str | None"]


class ConfigError(PlanetariumError, ValueError):
    """A configuration file or override is unusable; says which file, which key, what was
    expected."""

    def __init__(self, message: str, *, key: str | None = None, source: str | None = None) -> None:
        self.message, self.key, self.source = message, key, source
        super().__init__(str(self))

    def __str__(self) -> str:
        where = ": ".join(part for part in (self.source, self.key) if part)
        return f"{where}: {self.message}" if where else self.message

    def at(self, source: str) -> ConfigError:
        """This error, located in ``source`` (kept if it already names one)."""
        return self if self.source else ConfigError(self.message, key=self.key, source=source)


def setting(default: Any = dataclasses.MISSING, *, factory: Callable[[], Any] | None = None,
            check: Check | None = None, affects_output: bool = True) -> Any:
    """A dataclass field with a value ``check`` and, for run configs, whether it shapes outputs
    (fields that only change speed are left out of a run's config hash)."""
    metadata = {"check": check, "affects_output": affects_output}
    if factory is not None:
        return dataclasses.field(default_factory=factory, metadata=metadata)
    return dataclasses.field(default=default, metadata=metadata)


def at_least(bound: float) -> Check:
    return lambda value: None if value is None or value >= bound else f"a value >= {bound:g}"


def between(low: float, high: float) -> Check:
    return lambda value: (None if value is None or low <= value <= high
                          else f"a value between {low:g} and {high:g}")


def one_of(*choices: str) -> Check:
    return lambda value: None if value is None or value in choices else f"one of {', '.join(choices)}"


# --- reading ------------------------------------------------------------------------------


def _count_nodes(data: Any, limit: int) -> int:
    """Values in ``data`` with shared (aliased) parts counted every time they are reached;
    stops early past ``limit``."""
    count, stack = 0, [data]
    while stack:
        node = stack.pop()
        count += 1
        if count > limit:
            return count
        if isinstance(node, Mapping):
            stack.extend(node.keys())
            stack.extend(node.values())
        elif isinstance(node, (list, tuple)):
            stack.extend(node)
    return count


def read_yaml(path: str | Path) -> dict[str, Any]:
    """The top-level mapping of the YAML file at ``path`` (safe loader, bounded size)."""
    import yaml

    source = str(path)
    try:
        text = read_capped(path, MAX_CONFIG_BYTES).decode("utf-8")
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # both safe: no Python objects
        data = yaml.load(text, Loader=loader)
    except OSError as err:
        raise ConfigError(f"cannot read config: {err.strerror or err}", source=source) from err
    except JsonLineError as err:  # over the size cap (a device such as /dev/zero has no size)
        raise ConfigError(f"over the {MAX_CONFIG_BYTES}-byte limit for a configuration file",
                          source=source) from err
    except UnicodeDecodeError as err:
        raise ConfigError(f"not UTF-8 text ({err.reason})", source=source) from err
    except yaml.YAMLError as err:
        raise ConfigError(f"not valid YAML: {' '.join(str(err).split())}", source=source) from err
    except RecursionError as err:
        raise ConfigError("YAML nested too deeply", source=source) from err
    if _count_nodes(data, MAX_CONFIG_NODES) > MAX_CONFIG_NODES:
        raise ConfigError(f"expands to more than {MAX_CONFIG_NODES} values (YAML aliases?)",
                          source=source)
    if not isinstance(data, dict):
        raise ConfigError("expected a mapping of settings at the top level", source=source)
    return data


# --- overrides ------------------------------------------------------------------------------

_KEY = re.compile(r"[A-Za-z_][\w-]*(\.[A-Za-z_][\w-]*)*")


def apply_overrides(data: dict[str, Any], items: Iterable[str]) -> dict[str, Any]:
    """A copy of ``data`` with each ``key.path=value`` applied (``-`` in keys reads as ``_``)."""
    import yaml

    data = _copy_mappings(data)
    for item in items:
        key, sep, raw = item.partition("=")
        key = key.strip()
        if not sep or not _KEY.fullmatch(key):
            raise ConfigError(f"an override must look like key.path=value, got {item!r}",
                              source="--set")
        try:
            value = yaml.safe_load(raw)
        except yaml.YAMLError as err:
            raise ConfigError(f"the value is not valid YAML ({' '.join(str(err).split())})",
                              key=key, source="--set") from err
        *parents, leaf = key.replace("-", "_").split(".")
        node = data
        for depth, part in enumerate(parents):
            node = node.setdefault(part, {})
            if not isinstance(node, dict):
                raise ConfigError("is not a section", key=".".join(parents[: depth + 1]),
                                  source="--set")
        node[leaf] = value
    return data


def _copy_mappings(data: Any) -> Any:
    return {k: _copy_mappings(v) for k, v in data.items()} if isinstance(data, dict) else data


# --- building ---------------------------------------------------------------------------------


def load(cls: type[T], path: str | Path, overrides: Iterable[str] = ()) -> T:
    """Read ``path``, apply ``overrides`` and build ``cls`` from it."""
    return build(cls, apply_overrides(read_yaml(path), overrides), source=str(path))


def build(cls: type[T], data: Any, *, source: str = "config", key: str = "") -> T:
    """Instantiate dataclass ``cls`` from a mapping, checking keys, types and values."""
    try:
        return _build(cls, data, key)
    except ConfigError as err:
        raise err.at(source) from None


def _build(cls: type[T], data: Any, key: str) -> T:
    if not isinstance(data, Mapping):
        raise ConfigError(f"expected a mapping of settings, got {_show(data)}", key=key or None)
    if not dataclasses.is_dataclass(cls):  # a programming error, not a user's
        raise TypeError(f"settings are read into dataclasses, not {cls!r}")
    fields = {f.name: f for f in dataclasses.fields(cls) if f.init}
    unknown = sorted(str(k) for k in data if k not in fields)
    if unknown:
        close = difflib.get_close_matches(unknown[0], fields, n=1)
        hint = f"; did you mean '{close[0]}'?" if close else ""
        raise ConfigError(f"unknown key{hint} (allowed: {', '.join(sorted(fields))})",
                          key=_join(key, unknown[0]))
    hints = typing.get_type_hints(cls)
    values = {}
    for name, f in fields.items():
        path = _join(key, name)
        if name not in data:
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise ConfigError("missing (required)", key=path)
            continue
        value = coerce(hints[name], data[name], path)
        check = f.metadata.get("check")
        problem = check(value) if check else None
        if problem:
            raise ConfigError(f"expected {problem}, got {_show(value)}", key=path)
        values[name] = value
    try:
        return cls(**values)
    except ConfigError as err:  # a cross-field check in __post_init__
        raise (err if err.key is None or not key else
               ConfigError(err.message, key=_join(key, err.key))) from None


def coerce(hint: Any, value: Any, key: str) -> Any:
    """``value`` as the declared type ``hint``, or :class:`ConfigError` saying what was
    expected.  Lists become tuples where a tuple is declared; ints pass as floats."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is Any:
        return value
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        options = [a for a in args if a is not type(None)]
        if len(options) == 1 and value is not None and not _scalar(options[0]):
            return coerce(options[0], value, key)  # its own error names the inner key
        for option in options:
            try:
                return coerce(option, value, key)
            except ConfigError:
                continue
        expected = " or ".join(_describe(o) for o in options)
        if type(None) in args:
            expected += " or null"
        raise ConfigError(f"expected {expected}, got {_show(value)}", key=key)
    if origin is typing.Literal:
        if value in args:
            return value
        raise ConfigError(f"expected one of {', '.join(map(str, args))}, got {_show(value)}",
                          key=key)
    if origin in (tuple, list):
        if not isinstance(value, (list, tuple)):
            raise ConfigError(f"expected a list, got {_show(value)}", key=key)
        item = args[0] if args else Any
        items = [coerce(item, v, f"{key}[{i}]") for i, v in enumerate(value)]
        return tuple(items) if origin is tuple else items
    if origin is dict:
        if not isinstance(value, Mapping):
            raise ConfigError(f"expected a mapping, got {_show(value)}", key=key)
        key_type, item = args or (Any, Any)
        return {coerce(key_type, k, key): coerce(item, v, _join(key, str(k)))
                for k, v in value.items()}
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _build(hint, value, key)
    if isinstance(hint, type) and issubclass(hint, Enum):
        try:
            return hint(value)
        except ValueError:
            choices = ", ".join(str(m.value) for m in hint)
            raise ConfigError(f"expected one of {choices}, got {_show(value)}", key=key) from None
    if hint is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        if isinstance(value, str) and _FLOAT.fullmatch(value.strip()):
            return float(value)  # YAML 1.1 reads ``2e-5`` (no dot) as a string
        raise ConfigError(f"expected a number, got {_show(value)}", key=key)
    if hint is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise ConfigError(f"expected an integer, got {_show(value)}", key=key)
    if hint in (bool, str):
        if isinstance(value, hint):
            return value
        raise ConfigError(f"expected {_describe(hint)}, got {_show(value)}", key=key)
    raise TypeError(f"config field {key}: unsupported declared type {hint!r}")


_FLOAT = re.compile(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?")


def _scalar(hint: Any) -> bool:
    return hint in (bool, str, int, float) or typing.get_origin(hint) is typing.Literal


def _describe(hint: Any) -> str:
    names = {bool: "true or false", str: "a string", int: "an integer", float: "a number"}
    if hint in names:
        return names[hint]
    origin = typing.get_origin(hint)
    if origin in (tuple, list):
        return "a list"
    if origin is dict or dataclasses.is_dataclass(hint):
        return "a mapping"
    return getattr(hint, "__name__", str(hint))


def _show(value: Any) -> str:
    """A short, safe rendering of an offending value."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _join(prefix: str, name: str) -> str:
    return f"{prefix}.{name}" if prefix else name


def output_shaping(config: Any) -> dict[str, Any]:
    """The fields of a run config that shape its outputs (see :func:`setting`)."""
    return {f.name: getattr(config, f.name) for f in dataclasses.fields(config)
            if f.metadata.get("affects_output", True)}
