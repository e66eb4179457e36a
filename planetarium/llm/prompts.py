"""The pinned Planetarium prompt moved to :mod:`planetarium.benchmarks.planetarium.prompts` (the benchmark
owns its prompt); this name stays importable for fine-tuning scripts and notebooks."""

from ..benchmarks.planetarium.prompts import (  # noqa: F401
    DOMAIN_PROMPT,
    PROBLEM_PROMPT,
    PROMPT_TEMPLATE,
    build_messages,
    build_prompt,
    build_training_messages,
    prompt_hash,
    prompt_template_hash,
)
