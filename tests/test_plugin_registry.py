"""One registry class serves every kind of plug-in: domains, benchmarks, backends, reward schemes
and viewer scene drawers.

Each kind is tried the way a third party would add one: an installed distribution's entry
points (a dist-info directory on the path: no pip, no network) and ``register_*`` at run time.
``planetarium plugins`` lists every kind with where each plug-in came from and why a broken one
is missing; the built-ins listed in code match pyproject's entry points.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import tomllib

from planetarium import plugins
from planetarium.errors import MissingExtraError
from planetarium.plugins import PluginNotFoundError, Registry

REPO = Path(__file__).resolve().parents[1]
TOYS = [REPO / "examples" / "plugin"]  # the outside package of the toy domain and benchmark
#: Each kind's registry module (its ``REGISTRY``, ``BUILTINS`` and ``ENTRY_POINT_GROUP``).
KINDS = {
    "domain": "planetarium.domains.registry",
    "benchmark": "planetarium.benchmarks.registry",
    "backend": "planetarium.llm.backends.registry",
    "reward scheme": "planetarium.reward.schemes",
    "scene drawer": "planetarium.viewer.scenes",
}

#: A third party's reward scheme and scene drawer, one module.
EXTRAS = '''
from planetarium.reward.schemes import RewardScheme
from planetarium.viewer.scenes import SceneDrawer


class Half(RewardScheme):
    name = "half"

    def reward(self, result, weights):
        return 0.5 if result.correct else 0.0


def draw_switches(scene, canvas):
    for index, name in enumerate(scene.objects):
        canvas.shape("circle", {"cx": 20 + 40 * index, "cy": 20, "r": 15, "data-toy": name},
                     facts=[f for f in scene.facts if name in f[1:]])


HALF = Half()
SWITCHES = SceneDrawer("switches", draw_switches)
'''

ENTRY_POINTS = """\
[planetarium.domains]
switches = planetarium_example.switches:DOMAIN
[planetarium.benchmarks]
toy-arith = planetarium_example.arith:BENCHMARK
[planetarium.backends]
ghost = toy_ghost_backend:BACKEND
[planetarium.reward_schemes]
half = toy_extras:HALF
[planetarium.scene_drawers]
switches = toy_extras:SWITCHES
"""


def _installed(tmp_path: Path) -> dict[str, str]:
    """An environment where a distribution 'toy-plugins' provides one plug-in of every kind
    (its backend's module is missing)."""
    dist = tmp_path / "toy_plugins-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-plugins\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text(ENTRY_POINTS)
    (tmp_path / "toy_extras.py").write_text(EXTRAS)
    return {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(tmp_path), *map(str, TOYS), str(REPO), os.environ.get("PYTHONPATH", "")])}


def test_builtins_in_code_are_pyprojects_entry_points():
    declared = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["entry-points"]
    for module in KINDS.values():
        registry_module = importlib.import_module(module)
        assert declared[registry_module.ENTRY_POINT_GROUP] == registry_module.BUILTINS, module


def test_plugins_command_lists_every_kind_with_its_source(tmp_path):
    env = _installed(tmp_path)
    done = subprocess.run([sys.executable, "-m", "planetarium.cli", "plugins"], env=env,
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    by_kind_name = {(kind, name): line for line in done.stdout.splitlines()
                    for kind in KINDS if line.startswith(kind + " ")
                    for name in [line[len(kind):].split()[0]]}
    assert len(by_kind_name) == len(done.stdout.splitlines())  # a kind, a name, where from
    for kind, module in KINDS.items():
        for name, reference in importlib.import_module(module).BUILTINS.items():
            assert by_kind_name[(kind, name)].endswith(f"built-in {reference}")
    assert by_kind_name[("domain", "switches")].endswith(
        "entry point planetarium_example.switches:DOMAIN of toy-plugins")
    assert by_kind_name[("benchmark", "toy-arith")].endswith(
        "entry point planetarium_example.arith:BENCHMARK of toy-plugins")
    assert by_kind_name[("reward scheme", "half")].endswith("entry point toy_extras:HALF of toy-plugins")
    assert by_kind_name[("scene drawer", "switches")].endswith(
        "entry point toy_extras:SWITCHES of toy-plugins")
    assert "FAILED TO LOAD: ModuleNotFoundError: No module named 'toy_ghost_backend'" in \
        by_kind_name[("backend", "ghost")]


def test_outside_reward_scheme_and_scene_drawer_are_used(tmp_path):
    env = _installed(tmp_path)
    script = textwrap.dedent("""
        import json
        from planetarium.reward import PlanetariumReward
        from planetarium.rl.config import RewardConfig
        from planetarium.config import build
        from planetarium.viewer.scenes import Scene, draw

        gt = ("(define (problem p) (:domain switches) (:objects s1 - switch l1 - lamp) "
              "(:init (off s1) (wired s1 l1)) (:goal (and (lit l1))))")
        with PlanetariumReward(scheme="half", workers=0) as reward:
            rewards = reward(completions=[gt, "nonsense"], problem_pddl=[gt, gt])
            name = reward.__name__
        scene = Scene("switches", ("s1", "l1"), {}, frozenset({("off", "s1")}), {}, {}, "t")
        print(json.dumps({"rewards": rewards, "name": name,
                          "rl": build(RewardConfig, {"scheme": "half"}).scheme,
                          "svg": draw(scene).svg.count("data-toy")}))
    """)
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                          text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["rewards"] == [0.5, 0.0] and result["name"] == "planetarium_half"
    assert result["rl"] == "half"
    assert result["svg"] == 2  # the toy drawer's circles, one per object


def test_unknown_reward_scheme_names_the_registered_ones():
    from planetarium.config import ConfigError, build
    from planetarium.reward import PlanetariumReward, RewardConfigError
    from planetarium.rl.config import RewardConfig

    with pytest.raises(RewardConfigError, match="scheme must be one of correct, staged, got 'best'"):
        PlanetariumReward(scheme="best")
    with pytest.raises(ConfigError, match="reward.scheme: expected one of correct, staged"):
        build(RewardConfig, {"scheme": "best"}, key="reward")


class _Thing:
    def __init__(self, name: str) -> None:
        self.name = name


def test_registry_register_shadow_replace_and_case(monkeypatch):
    monkeypatch.setattr(plugins, "entry_points", lambda group: [])
    registry: Registry[_Thing] = Registry("thing", "tests.things", _Thing, {}, lambda t: t.name,
                                          normalize=str.lower)
    first, second = _Thing("Alpha"), _Thing("alpha")
    assert registry.register(first) is first
    assert registry.get("ALPHA") is first and registry.source("alpha") == "registered at run time"
    with pytest.raises(ValueError, match="a thing named 'alpha' is already registered"):
        registry.register(second)
    registry.register(second, replace=True)
    assert registry.get("Alpha") is second
    with pytest.raises(TypeError, match="is not a _Thing"):
        registry.register("alpha")  # type: ignore[arg-type]
    registry.unregister("ALPHA")
    with pytest.raises(PluginNotFoundError, match=r"unknown thing 'alpha' \(registered: none\)"):
        registry.get("alpha")
    assert registry.listing() == []


def test_a_builtin_that_is_not_of_the_kind_is_a_failure_not_a_crash(monkeypatch):
    monkeypatch.setattr(plugins, "entry_points", lambda group: [])
    registry: Registry[_Thing] = Registry("thing", "tests.things", _Thing,
                                          {"broken": "planetarium.plugins:Registry",
                                           "absent": "planetarium.no_such_module:THING"},
                                          lambda t: t.name)
    assert registry.available() == {}
    failures = registry.failures()
    assert failures["broken"] == "TypeError: planetarium.plugins:Registry is a type, not a _Thing"
    assert failures["absent"].startswith("ModuleNotFoundError: No module named")
    assert [(e.name, e.failure is not None) for e in registry.listing()] == [
        ("absent", True), ("broken", True)]


def test_backend_packages_are_asked_of_the_spec():
    from planetarium.llm.availability import check_extras
    from planetarium.llm.backends.registry import REGISTRY, BackendSpec
    from planetarium.llm.options import ModelConfig

    def never(options, model):
        raise AssertionError("a backend with missing packages must not be loaded")

    spec = BackendSpec("needy", ModelConfig, never, local=False,
                       requires=(("json", "stdlib"), ("planetarium_tests_absent_pkg", "needy")))
    REGISTRY.register(spec)
    try:
        with pytest.raises(MissingExtraError, match=r"needs 'planetarium_tests_absent_pkg'.*"
                                                    r"pip install 'planetarium-pddl\[needy\]'"):
            check_extras(ModelConfig(backend="needy", model="m"))
    finally:
        REGISTRY.unregister("needy")
    assert REGISTRY.get("vllm").requires == (("vllm", "vllm"),)
