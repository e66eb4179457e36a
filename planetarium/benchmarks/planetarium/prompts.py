"""The Planetarium benchmark's prompt, pinned to the paper's protocol and fingerprinted.

Reproducing published numbers fails first on prompt drift (a changed space, a system message, a
different order), so the template lives in one place, is used verbatim by evaluation *and*
fine-tuning, and its hash goes into every completion and results record.  Changing any string
here changes :func:`prompt_template_hash` and thereby marks older runs as not comparable.
"""

from __future__ import annotations

import hashlib
import json

PROBLEM_PROMPT = (
    "Provide me with the complete, valid problem PDDL file that describes the following "
    "planning problem directly without further explanations or texts."
)
DOMAIN_PROMPT = "The domain for the planning problem is:"
PROMPT_TEMPLATE = "{problem_prompt} {natural_language} {domain_prompt}\n{domain_pddl}\n"


def build_prompt(natural_language: str, domain_pddl: str) -> str:
    """The single user turn's text: instruction, description, then the domain file."""
    return PROMPT_TEMPLATE.format(
        problem_prompt=PROBLEM_PROMPT,
        natural_language=natural_language,
        domain_prompt=DOMAIN_PROMPT,
        domain_pddl=domain_pddl,
    )


def build_messages(natural_language: str, domain_pddl: str) -> list[dict[str, str]]:
    """Chat messages for one item: one user message and no system message (the paper's setup)."""
    return [{"role": "user", "content": build_prompt(natural_language, domain_pddl)}]


def build_training_messages(
    natural_language: str, domain_pddl: str, problem_pddl: str
) -> list[dict[str, str]]:
    """Messages for supervised fine-tuning: the evaluation prompt answered by the ground truth."""
    return [
        *build_messages(natural_language, domain_pddl),
        {"role": "assistant", "content": problem_pddl},
    ]


def prompt_template_hash() -> str:
    """Short SHA-256 over every pinned string, so runs with different prompts never mix."""
    pinned = json.dumps(
        {"template": PROMPT_TEMPLATE, "problem": PROBLEM_PROMPT, "domain": DOMAIN_PROMPT},
        sort_keys=True,
    )
    return hashlib.sha256(pinned.encode("utf-8")).hexdigest()[:16]


def prompt_hash(messages: list[dict[str, str]]) -> str:
    """Short SHA-256 of one rendered request, recorded per completion to detect silent drift."""
    blob = json.dumps(messages, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]
