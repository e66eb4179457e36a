"""Where a question's domain comes from: ARB's thirteen built-ins, or a folder of one's own.

``--domains DIR`` holds one folder per domain, ``DIR/<name>/``, with the domain as
``domain.pddl`` (STRIPS with typing; no parameter pairs are required to differ) or as ARB's
``domain.lp`` (its ASP subset: :mod:`.asp`), and optionally:

- ``phrases.json``: the domain's English in :mod:`.phrases`' notation,
  ``{"fluents": {"on": "block {0} is ~on block {1}", ...}, "actions": {...}}`` (a fluent may
  be a ``[positive, negative]`` pair); without it a built-in domain's name reuses the built-in
  English, and any other domain cannot be read;
- ``kinds.json``: ARB's fluent kinds, ``{"base": ["ontable"], "derived": [...], ...}``.

A folder's domain replaces the built-in of the same name.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..errors import PlanetariumError
from ..jsonl import JsonLineError, decode, read_capped
from ..pddl.domain import parse_domain
from .asp import read_asp_domain
from .builtin import NAMES, builtin_domain, domain_from_pddl
from .domain import KINDS, ArbDomain, make_domain
from .phrases import PhraseBook, make_phrase_book, phrase_book


class DomainFolderError(PlanetariumError, ValueError):
    """A domain folder that cannot be used (names the file and what is wrong)."""


def builtin_lookup(name: str, version: str) -> tuple[ArbDomain, PhraseBook]:
    """ARB's own domains and English (``KeyError`` for another name)."""
    if name not in NAMES:
        raise KeyError(name)
    return builtin_domain(name, version), phrase_book(name, version)


def _json(path: Path) -> dict:
    try:
        value = decode(read_capped(path, 16 * 1024 * 1024))
    except (OSError, JsonLineError) as err:
        raise DomainFolderError(f"{path}: {err}") from err
    if not isinstance(value, dict):
        raise DomainFolderError(f"{path}: expected a JSON object")
    return value


def _kinds(path: Path) -> dict[str, frozenset[str]]:
    kinds: dict[str, set[str]] = {}
    for kind, predicates in _json(path).items():
        if kind not in KINDS or not isinstance(predicates, list):
            raise DomainFolderError(f"{path}: expected {{kind: [predicates]}} with kinds from "
                                    f"{', '.join(KINDS)}")
        for predicate in predicates:
            kinds.setdefault(str(predicate), set()).add(kind)
    return {p: frozenset(k) for p, k in kinds.items()}


def _entries(path: Path, table: object, what: str) -> dict:
    if not isinstance(table, dict):
        raise DomainFolderError(f"{path}: '{what}' must map names to wordings")
    out: dict[str, str | tuple[str, str]] = {}
    for name, spec in table.items():
        if isinstance(spec, list) and len(spec) == 2 and all(isinstance(s, str) for s in spec):
            out[name] = (spec[0], spec[1])
        elif isinstance(spec, str):
            out[name] = spec
        else:
            raise DomainFolderError(f"{path}: {what} {name!r}: a wording string or a "
                                    "[positive, negative] pair")
    return out


@functools.lru_cache(maxsize=64)
def _load(folder: Path, version: str) -> tuple[ArbDomain, PhraseBook]:
    name = folder.name
    kinds = _kinds(folder / "kinds.json") if (folder / "kinds.json").is_file() else None
    if kinds is None and name in NAMES:  # ARB's own domain: its kinds, for the names it shares
        kinds = dict(builtin_domain(name, version).kinds)
    try:
        if (folder / "domain.pddl").is_file():
            text = (folder / "domain.pddl").read_text(encoding="utf-8")
            predicates = set(parse_domain(text).predicates)
            domain = domain_from_pddl(text, name, None,
                                      {p: k for p, k in (kinds or {}).items() if p in predicates})
        elif (folder / "domain.lp").is_file():
            domain = read_asp_domain((folder / "domain.lp").read_text(encoding="utf-8"), name)
            if kinds:
                kinds = {p: k for p, k in kinds.items() if p in domain.fluents}
                domain = make_domain(name, domain.parents, domain.fluents, domain.actions, kinds)
        else:
            raise DomainFolderError(f"{folder}: no domain.pddl or domain.lp")
    except (OSError, UnicodeDecodeError) as err:
        raise DomainFolderError(f"{folder}: {err}") from err
    except PlanetariumError as err:
        if isinstance(err, DomainFolderError):
            raise
        raise DomainFolderError(f"{folder}: {err}") from err
    if (folder / "phrases.json").is_file():
        tables = _json(folder / "phrases.json")
        book = make_phrase_book(name, version,
                                _entries(folder / "phrases.json", tables.get("fluents", {}),
                                         "fluents"),
                                _entries(folder / "phrases.json", tables.get("actions", {}),
                                         "actions"))
    elif name in NAMES:
        book = phrase_book(name, version)
    else:
        raise DomainFolderError(f"{folder}: no phrases.json, and {name} is not one of ARB's "
                                "domains whose English is built in")
    return domain, book


def folder_lookup(root: str | Path) -> Callable[[str, str], tuple[ArbDomain, PhraseBook]]:
    """A lookup that prefers ``root/<name>/`` and falls back to the built-ins."""
    base = Path(root)
    if not base.is_dir():
        raise DomainFolderError(f"{base}: not a folder")

    def lookup(name: str, version: str) -> tuple[ArbDomain, PhraseBook]:
        folder = base / name
        if folder.is_dir():
            return _load(folder.resolve(), version)
        return builtin_lookup(name, version)
    return lookup


@dataclass(frozen=True)
class KnownInstance:
    """An instance read from files: objects by type, initial fluents, and the plan if given."""

    objects: dict[str, tuple[str, ...]]
    init: tuple[tuple, ...]
    plan: tuple[tuple[str, tuple[str, ...]], ...] | None


def _pddl_name(name: str) -> str:
    return name.lower().replace("-", "_")


def read_instance(problem: str, plan: str | None, domain: ArbDomain, where: str
                  ) -> KnownInstance:
    """ARB's PDDL problem (objects, init) and plan (one ``(action args)`` per line), in ASP
    names; init atoms of predicates the domain does not have are left out."""
    from ..pddl.domain import parse_typed_list
    from ..pddl.sexpr import SList, read_sexprs

    try:
        forms = read_sexprs(problem)
    except PlanetariumError as err:
        raise DomainFolderError(f"{where}: {err}") from err
    define = forms[0] if forms and isinstance(forms[0], SList) else SList(1)
    objects: dict[str, list[str]] = {}
    init: list[tuple] = []
    for section in define[1:]:
        if not isinstance(section, SList) or not section:
            continue
        if section[0] == ":objects":
            for name, kind in parse_typed_list(section):
                objects.setdefault(_pddl_name(kind), []).append(name.lower())
        elif section[0] == ":init":
            for atom in section[1:]:
                if isinstance(atom, SList) and atom and all(isinstance(x, str) for x in atom):
                    predicate = _pddl_name(atom[0])
                    if predicate in domain.fluents:
                        init.append((predicate, *(str(x).lower() for x in atom[1:])))
    if not objects:
        raise DomainFolderError(f"{where}: no :objects")
    steps: list[tuple[str, tuple[str, ...]]] = []
    for line in (plan or "").splitlines():
        line = line.split(";", 1)[0].strip()
        if line.startswith("(") and line.endswith(")"):
            name, *args = line[1:-1].split()
            steps.append((_pddl_name(name), tuple(a.lower() for a in args)))
    return KnownInstance({k: tuple(v) for k, v in objects.items()}, tuple(init),
                         tuple(steps) if plan is not None else None)


InstanceLookup = Callable[[ArbDomain, str, str], "KnownInstance | None"]


def instance_lookup(root: str | Path) -> InstanceLookup:
    """Instances under ``root``: ``<domain>/<instance>/instance.pddl`` or ARB's own layout
    ``<domain>/instances/<instance>/instance.pddl`` (a ``plan.pddl`` beside it is read too)."""
    base = Path(root)
    if not base.is_dir():
        raise DomainFolderError(f"{base}: not a folder")

    @functools.lru_cache(maxsize=256)
    def find(domain: ArbDomain, name: str, instance: str) -> KnownInstance | None:
        for folder in (base / name / instance, base / name / "instances" / instance):
            problem = folder / "instance.pddl"
            if problem.is_file():
                plan = folder / "plan.pddl"
                try:
                    return read_instance(problem.read_text(encoding="utf-8"),
                                         plan.read_text(encoding="utf-8") if plan.is_file()
                                         else None, domain, str(problem))
                except (OSError, UnicodeDecodeError) as err:
                    raise DomainFolderError(f"{problem}: {err}") from err
        return None
    return find


@dataclass(frozen=True)
class Catalog:
    """Where domains and (for final-release records) instances come from."""

    domains: Callable[[str, str], tuple[ArbDomain, PhraseBook]] = builtin_lookup
    instances: InstanceLookup | None = None


BUILTIN = Catalog()


def make_catalog(domains_dir: str | Path | None = None,
                 instances_dir: str | Path | None = None) -> Catalog:
    return Catalog(folder_lookup(domains_dir) if domains_dir else builtin_lookup,
                   instance_lookup(instances_dir) if instances_dir else None)
