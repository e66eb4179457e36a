"""Training examples: the evaluation prompt answered by the ground truth, loss on the answer only.

The model must be trained on exactly what it will see at evaluation time, so the prompt comes
from :func:`planetarium.llm.prompts.build_training_messages` rendered with the tokenizer's own
chat template.  Prompt and answer are tokenized *separately* and concatenated: at inference the
prompt is tokenized alone and the model continues it, so this is the token boundary it must learn
(tokenizing the joined text could merge tokens across it).  Labels are ``-100`` on the prompt and
on padding, so only the answer (the problem PDDL plus the template's end-of-turn) carries loss.
"""

from __future__ import annotations

import hashlib
import json
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from planetarium.errors import PlanetariumError
from planetarium.llm.prompts import build_training_messages

IGNORE_INDEX = -100  # the label value torch's cross-entropy skips


@dataclass(frozen=True)
class Example:
    """One tokenized training example; the first ``prompt_len`` tokens are the prompt.

    Ids are a compact ``array`` (4 bytes a token) rather than a tuple of Python ints (~36 bytes
    a token once ids pass 256): the full training split is ~10^8 tokens held in memory per rank.
    """

    id: str
    input_ids: array
    prompt_len: int

    def __len__(self) -> int:
        return len(self.input_ids)


def render(row: dict[str, Any], tokenizer: Any, domain_pddl: str) -> tuple[str, str]:
    """Split the chat-formatted training text into (prompt, answer) strings."""
    messages = build_training_messages(row["natural_language"], domain_pddl, row["problem_pddl"])
    prompt = tokenizer.apply_chat_template(
        messages[:-1], tokenize=False, add_generation_prompt=True
    )
    full = tokenizer.apply_chat_template(messages, tokenize=False)
    if not full.startswith(prompt):
        raise PlanetariumError(
            "the chat template does not render the answer as a continuation of the generation "
            f"prompt, so prompt tokens cannot be masked (row {row['id']})"
        )
    return prompt, full[len(prompt) :]


def tokenize_rows(
    rows: Sequence[dict[str, Any]], tokenizer: Any, domain_pddl: dict[str, str]
) -> list[Example]:
    """Tokenize every row (batched through the fast tokenizer) into untruncated examples."""
    pairs = [render(row, tokenizer, domain_pddl[row["domain"]]) for row in rows]
    prompts = tokenizer([p for p, _ in pairs], add_special_tokens=False)["input_ids"]
    answers = tokenizer([a for _, a in pairs], add_special_tokens=False)["input_ids"]
    return [
        Example(id=str(row["id"]), input_ids=array("i", p + a), prompt_len=len(p))
        for row, p, a in zip(rows, prompts, answers, strict=True)
    ]


def drop_longest(
    examples: Sequence[Example], fraction: float
) -> tuple[list[Example], list[Example]]:
    """Drop the ``floor(n * fraction)`` longest examples (Appendix F drops the longest 5%).

    Ties are broken by position (the later example counts as longer) so the choice is
    deterministic; the kept examples stay in their original order.  Returns (kept, dropped).
    """
    n_drop = int(len(examples) * Fraction(str(fraction)))  # exact: 0.29 * 100 is 29, not 28.99...
    by_length = sorted(range(len(examples)), key=lambda i: (len(examples[i]), i))
    dropped = set(by_length[len(examples) - n_drop :])
    kept = [ex for i, ex in enumerate(examples) if i not in dropped]
    return kept, [examples[i] for i in sorted(dropped)]


def truncate(examples: Iterable[Example], max_len: int) -> tuple[list[Example], list[Example], int]:
    """Cut examples to ``max_len`` tokens (the recipe's max sequence length, as the original did).

    An example whose prompt alone fills ``max_len`` keeps no answer token and would give a batch
    with no loss at all (NaN), so it is dropped instead.  Returns (kept, dropped, number cut).
    """
    kept, dropped, n_cut = [], [], 0
    for ex in examples:
        if len(ex) <= max_len:
            kept.append(ex)
        elif ex.prompt_len < max_len:
            n_cut += 1
            kept.append(Example(ex.id, ex.input_ids[:max_len], ex.prompt_len))
        else:
            dropped.append(ex)
    return kept, dropped, n_cut


def rows_hash(rows: Iterable[dict[str, Any]]) -> str:
    """SHA-256 over the training pairs in order, so a record names exactly the data it saw."""
    digest = hashlib.sha256()
    for row in rows:
        item = [str(row["id"]), row["domain"], row["natural_language"], row["problem_pddl"]]
        digest.update(json.dumps(item, ensure_ascii=False).encode("utf-8") + b"\n")
    return digest.hexdigest()


class CompletionCollator:
    """Right-pads a batch and masks prompt and padding positions out of the labels."""

    def __init__(self, pad_token_id: int) -> None:
        self.pad_token_id = pad_token_id

    def __call__(self, batch: Sequence[Example]) -> dict[str, Any]:
        import torch

        width = max(len(ex) for ex in batch)
        input_ids = torch.full((len(batch), width), self.pad_token_id, dtype=torch.long)
        attention_mask = torch.zeros((len(batch), width), dtype=torch.long)
        labels = torch.full((len(batch), width), IGNORE_INDEX, dtype=torch.long)
        for i, ex in enumerate(batch):
            ids = torch.frombuffer(ex.input_ids, dtype=torch.int32).long()
            input_ids[i, : len(ex)] = ids
            attention_mask[i, : len(ex)] = 1
            labels[i, ex.prompt_len : len(ex)] = ids[ex.prompt_len :]
        return {"input_ids": input_ids, "attention_mask": attention_mask, "labels": labels}
