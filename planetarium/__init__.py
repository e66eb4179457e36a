"""Planetarium: decide whether a generated PDDL problem is the *right* one.

The top-level package stays light: importing it loads no torch, vLLM, transformers, peft or
datasets.  Heavy stacks live behind extras and are imported inside the functions that need them.
"""

from __future__ import annotations

__version__ = "0.1.0"


def __getattr__(name: str) -> object:
    """``planetarium.DOMAINS`` of the original package (domain name -> PDDL text), computed on
    first use so ``import planetarium`` stays light."""
    if name == "DOMAINS":
        from .compat import domains

        return domains()
    raise AttributeError(f"module 'planetarium' has no attribute {name!r}")


def evaluate(source_pddl_str: str, target_pddl_str: str, domain_str: str | None = None,
             is_placeholder: bool = False, check_solveable: bool = True,
             **kwargs: object) -> tuple[bool, bool, bool]:
    """The original Planetarium package's ``evaluate``: ``(parseable, solveable, equivalent)``.

    Imported on first call so ``import planetarium`` stays light; see :mod:`planetarium.compat`.
    """
    from .compat import evaluate as _evaluate

    return _evaluate(source_pddl_str, target_pddl_str, domain_str, is_placeholder,
                     check_solveable, **kwargs)
