"""Planetarium: decide whether a generated PDDL problem is the *right* one.

The top-level package stays light: importing it loads no torch, vLLM, transformers, peft or
datasets.  Heavy stacks live behind extras and are imported inside the functions that need them.
"""

from __future__ import annotations

__version__ = "0.1.0"
