"""The one configuration mechanism: strict keys and types, --set overrides, bounded reading.

Dataset, eval and fine-tuning configs all go through planetarium.config; the checks here are
on small dataclasses of every supported field type, and on each shipped config family.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import pytest

from planetarium.config import (
    MAX_CONFIG_BYTES,
    ConfigError,
    apply_overrides,
    at_least,
    build,
    load,
    read_yaml,
    setting,
)
from planetarium.dataset.config import load_config as load_dataset_config
from planetarium.finetune.config import load_config as load_finetune_config
from planetarium.llm.config import load_config as load_eval_config

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Inner:
    rate: float = 0.5
    mode: Literal["a", "b"] = "a"


@dataclass(frozen=True)
class Outer:
    name: str
    count: int = setting(1, check=at_least(1))
    flag: bool = False
    sizes: tuple[int, ...] = (1, 2)
    maybe: int | None = None
    inner: Inner = field(default_factory=Inner)
    table: dict[str, Inner] = field(default_factory=dict)
    free: Any = None


def test_every_field_type_is_checked_and_converted():
    built = build(Outer, {"name": "x", "count": 3, "flag": True, "sizes": [4, 5], "maybe": None,
                          "inner": {"rate": 2, "mode": "b"}, "table": {"k": {"rate": "1e-3"}},
                          "free": {"any": [1, "thing"]}})
    assert built == Outer("x", 3, True, (4, 5), None, Inner(2.0, "b"), {"k": Inner(1e-3)},
                          {"any": [1, "thing"]})
    assert isinstance(built.inner.rate, float) and isinstance(built.sizes, tuple)


@pytest.mark.parametrize("data, message", [
    ({}, "name: missing"),
    ({"name": 3}, "name: expected a string, got 3"),
    ({"name": "x", "count": True}, "count: expected an integer, got True"),
    ({"name": "x", "count": "2"}, "count: expected an integer, got '2'"),
    ({"name": "x", "count": 0}, "count: expected a value >= 1, got 0"),
    ({"name": "x", "flag": "yes"}, "flag: expected true or false, got 'yes'"),
    ({"name": "x", "sizes": 5}, "sizes: expected a list, got 5"),
    ({"name": "x", "sizes": [1, "two"]}, r"sizes\[1\]: expected an integer, got 'two'"),
    ({"name": "x", "maybe": "one"}, "maybe: expected an integer or null, got 'one'"),
    ({"name": "x", "inner": {"rat": 1}}, "inner.rat: unknown key; did you mean 'rate'"),
    ({"name": "x", "inner": {"mode": "c"}}, "inner.mode: expected one of a, b, got 'c'"),
    ({"name": "x", "inner": 7}, "inner: expected a mapping of settings, got 7"),
    ({"name": "x", "table": {"k": {"rate": "fast"}}}, "table.k.rate: expected a number"),
    ({"name": "x", "nmae": "y"}, "nmae: unknown key; did you mean 'name'"),
])
def test_bad_values_name_the_key_and_what_was_expected(data, message):
    with pytest.raises(ConfigError, match=message) as caught:
        build(Outer, data, source="my.yaml")
    assert str(caught.value).startswith("my.yaml: ")
    assert "\n" not in str(caught.value)


def test_overrides_use_one_dotted_syntax_and_yaml_values():
    data = apply_overrides({"name": "x", "inner": {"rate": 1}},
                           ["count=4", "inner.mode=b", "sizes=[7, 8]", "maybe=null", "flag=true"])
    assert build(Outer, data) == Outer("x", 4, True, (7, 8), None, Inner(1.0, "b"))
    for bad in ("count", "=3", "a..b=1", "in ner=1"):
        with pytest.raises(ConfigError, match="key.path=value"):
            apply_overrides({}, [bad])
    with pytest.raises(ConfigError, match="name: is not a section"):
        apply_overrides({"name": "x"}, ["name.sub=1"])


def test_reading_refuses_unsafe_huge_and_exploding_files(tmp_path):
    unsafe = tmp_path / "unsafe.yaml"
    unsafe.write_text("name: !!python/object/apply:os.system ['echo pwned']\n")
    with pytest.raises(ConfigError, match="not valid YAML"):
        read_yaml(unsafe)
    huge = tmp_path / "huge.yaml"
    huge.write_text("name: " + "x" * (MAX_CONFIG_BYTES + 1) + "\n")
    with pytest.raises(ConfigError, match="byte limit"):
        read_yaml(huge)
    # nine levels of ten aliases each: a billion strings once expanded
    lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 9)]
    lines.append("name: *a8")
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text("\n".join(lines) + "\n")
    with pytest.raises(ConfigError, match="aliases"):
        read_yaml(bomb)
    listed = tmp_path / "list.yaml"
    listed.write_text("- a\n- b\n")
    with pytest.raises(ConfigError, match="expected a mapping"):
        read_yaml(listed)
    with pytest.raises(ConfigError, match="cannot read config"):
        read_yaml(tmp_path / "missing.yaml")


def test_load_names_the_file(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("name: x\ncount: -2\n")
    with pytest.raises(ConfigError, match=rf"^{path}: count: expected a value >= 1, got -2$"):
        load(Outer, path)


@pytest.mark.parametrize("loader, pattern", [
    (load_dataset_config, "data/*.yaml"),
    (load_eval_config, "eval/*.yaml"),
    (load_finetune_config, "finetune/*.yaml"),
])
def test_every_shipped_config_loads_through_the_shared_mechanism(loader, pattern):
    paths = sorted(ROOT.glob(pattern))
    assert paths
    for path in paths:
        loader(path)


@pytest.mark.parametrize("text, message", [
    ("seed: abc\n", "seed: expected an integer, got 'abc'"),
    ("size_bins: 5\n", "size_bins: expected a list, got 5"),
    ("size_bins: [40, 20]\n", "size_bins: expected a non-empty, strictly increasing list"),
    ("test_fold: 9\n", "test_fold: expected a fold in 0..4"),
    ("domains: [{name: blocksworld, layouts: {stack: {space: 3}}}]\n",
     r"domains\[0\].layouts.stack.space: expected a mapping"),
])
def test_dataset_config_values(tmp_path, text, message):
    path = tmp_path / "d.yaml"
    path.write_text(text if text.startswith("domains") else "domains: [{name: blocksworld}]\n" + text)
    with pytest.raises(ConfigError, match=message):
        load_dataset_config(path)
