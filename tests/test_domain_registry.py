"""Domains fail loudly: a broken task module, a second plug-in of the same name, and attempts to
change a parsed domain are errors, never silent changes to what gets graded or generated."""

from __future__ import annotations

import sys
from types import SimpleNamespace

import pytest

import planetarium.domains.registry as registry
from planetarium import plugins
from planetarium.domains import Domain, get_domain
from planetarium.domains.builtin import BuiltinDomain
from planetarium.errors import DomainNotFoundError
from planetarium.plugins import Registry

DOMAIN_PDDL = """(define (domain lamps) (:requirements :strips)
  (:predicates (on ?x) (off ?x))
  (:action switch :parameters (?x) :precondition (off ?x) :effect (and (on ?x) (not (off ?x)))))"""


def _package(root, name: str, tasks: str | None) -> str:
    package = root / name
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "domain.pddl").write_text(DOMAIN_PDDL)
    if tasks is not None:
        (package / "tasks.py").write_text(tasks)
    return name


def test_an_import_error_inside_a_task_module_is_not_no_tasks(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    broken = BuiltinDomain("lamps", _package(tmp_path, "lamps_broken", "import not_installed\n"))
    with pytest.raises(ModuleNotFoundError, match="not_installed"):
        broken.dataset_tasks()
    without = BuiltinDomain("lamps", _package(tmp_path, "lamps_without", None))
    assert without.dataset_tasks() == ()
    for name in ("lamps_broken", "lamps_without"):
        sys.modules.pop(name, None)


def test_a_second_plug_in_with_a_taken_name_is_reported(monkeypatch):
    first, second = get_domain("blocksworld"), BuiltinDomain(
        "blocksworld", "planetarium.domains.blocksworld")
    sys.modules["pkg_a"] = SimpleNamespace(DOMAIN=first)
    sys.modules["pkg_b"] = SimpleNamespace(DOMAIN=second)
    points = [SimpleNamespace(name="blocksworld", value="pkg_a:DOMAIN"),
              SimpleNamespace(name="blocks-again", value="pkg_b:DOMAIN")]
    monkeypatch.setattr(plugins, "entry_points", lambda group: points)
    fresh = Registry("domain", registry.ENTRY_POINT_GROUP, Domain, {}, lambda d: d.name,
                     normalize=str.lower, not_found=DomainNotFoundError)
    monkeypatch.setattr(registry, "REGISTRY", fresh)
    try:
        assert registry.get_domain("BlocksWorld") is first
        assert registry.failed_plugins() == {
            "blocks-again": "pkg_b:DOMAIN is ignored: domain 'blocksworld' is already provided by "
                            "pkg_a:DOMAIN"}
        assert fresh.source("blocksworld") == "entry point pkg_a:DOMAIN"
        with pytest.raises(DomainNotFoundError, match="unknown domain 'lamps' "
                           r"\(registered: blocksworld; failed to load: blocks-again\)"):
            registry.get_domain("lamps")
    finally:
        for name in ("pkg_a", "pkg_b"):
            sys.modules.pop(name, None)


def test_a_parsed_domain_cannot_be_changed():
    definition = get_domain("blocksworld").definition
    with pytest.raises(TypeError):
        definition.actions["fly"] = definition.actions["stack"]  # type: ignore[index]
    with pytest.raises(TypeError):
        definition.predicates["on"] = ("object",)  # type: ignore[index]
    with pytest.raises(AttributeError):
        definition.name = "other"  # type: ignore[misc]
