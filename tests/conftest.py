"""Shared test configuration: every planetarium module loaded before the first test (so
hypothesis draws the same examples whatever ran before), GPU tests skipped cleanly on machines
without CUDA, the process's ground-truth memo emptied before each test (so what a test counts
does not depend on what ran before), a fixture that counts the domain planners' hand-offs to
the generic planner, a fixture that puts a deadline in force for tests that call code below
the entry points, and the tiny local model."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from planetarium.limits import Deadline


def pytest_configure(config: pytest.Config) -> None:
    """Import every planetarium module now.  Hypothesis mixes constants found in the local
    modules loaded so far into its draws, so without this a derandomized test's examples (and
    the counts its assertions are about) would depend on which tests happened to run before."""
    import importlib
    import pkgutil

    import planetarium

    for info in pkgutil.walk_packages(planetarium.__path__, "planetarium."):
        if info.name.startswith("planetarium.adapters."):
            continue  # they load Inspect / lm-eval (seconds); their tests import them
        try:
            importlib.import_module(info.name)
        except ImportError:  # a module of an extra this environment does not have
            continue


def _cuda_available() -> bool:
    try:
        import torch
    except ImportError:
        return False
    return torch.cuda.is_available()


def pytest_collection_modifyitems(config, items):
    if _cuda_available():
        return
    skip_gpu = pytest.mark.skip(reason="needs a CUDA GPU")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip_gpu)


@pytest.fixture(autouse=True)
def _fresh_truth_memo():
    """Each test starts with an empty memo of prepared ground truths (planetarium.grading), and
    leaves no harness adapter's grader worker behind (tests count child processes)."""
    import sys

    from planetarium.grading import TRUTHS

    TRUTHS.clear()
    yield
    adapters = sys.modules.get("planetarium.adapters.common")
    if adapters is not None:
        adapters.close_graders()


@pytest.fixture
def item_deadline() -> Iterator[Deadline]:
    """A 60 s deadline in force for the whole test, as an entry point would make one: for tests
    that call the engines below the entry points (``Domain.fully_specify`` of a domain without
    a closed form, ``literal_closure``, ``strips.forced``), which raise MissingDeadlineError
    without one (planetarium.limits, the deadline rule)."""
    from planetarium.limits import Deadline

    with Deadline.start(60.0).applied() as deadline:
        yield deadline


@pytest.fixture
def generic_calls(monkeypatch: pytest.MonkeyPatch) -> Counter:
    """Counts calls of :func:`planetarium.strips.generic.generic_solve` (``["calls"]``): where a
    domain planner hands a problem to it, the generic planner decided, not the domain's own."""
    import planetarium.strips.generic as generic

    calls: Counter = Counter()
    real = generic.generic_solve

    def counted(*args, **kwargs):
        calls["calls"] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(generic, "generic_solve", counted)
    return calls


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny Gemma 2 model and PDDL tokenizer, built once per test session."""
    from planetarium.llm.tiny import build_tiny_model

    return build_tiny_model(tmp_path_factory.mktemp("tiny") / "model", seed=0)


@pytest.fixture
def one_thread():
    """One torch thread while generating in the test process.

    On a shared 2-core machine OpenMP threads spin against other processes and generation gets
    about ten times slower; one thread is plenty for the tiny model.
    """
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)
