"""A tiny random-weight Gemma 2 model and PDDL tokenizer, built locally in seconds.

The whole inference and fine-tuning path (chat template, left padding, generation, adapters,
saving) must be exercisable on a CPU and without the hub.  This module builds a model with the
real Gemma 2 architecture but toy sizes, and a byte-level BPE tokenizer trained with
``tokenizers`` on PDDL-like text generated here, so any string can be encoded and the vocabulary
is small.  Everything is derived from ``seed``, so two builds with the same seed are identical.
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

from ..errors import require
from ..pddl.writer import render_problem
from .options import TINY_PREFIX
from .prompts import DOMAIN_PROMPT, PROBLEM_PROMPT

# Gemma's own special tokens and ids (pad=0, eos=1, bos=2, unk=3), then its turn markers.
SPECIAL_TOKENS = ["<pad>", "<eos>", "<bos>", "<unk>", "<start_of_turn>", "<end_of_turn>"]
VOCAB_SIZE = 1024
# The Gemma 2 IT chat template, verbatim: no system role, "assistant" is rendered as "model".
CHAT_TEMPLATE = (
    "{{ bos_token }}{% if messages[0]['role'] == 'system' %}"
    "{{ raise_exception('System role not supported') }}{% endif %}"
    "{% for message in messages %}"
    "{% if (message['role'] == 'user') != (loop.index0 % 2 == 0) %}"
    "{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}"
    "{% endif %}{% if (message['role'] == 'assistant') %}{% set role = 'model' %}"
    "{% else %}{% set role = message['role'] %}{% endif %}"
    "{{ '<start_of_turn>' + role + '\n' + message['content'] | trim + '<end_of_turn>\n' }}"
    "{% endfor %}{% if add_generation_prompt %}{{'<start_of_turn>model\n'}}{% endif %}"
)
_MARKER = "tiny.json"
_BUILD_VERSION = 1

_BLOCKSWORLD_ACTIONS = """(define (domain blocksworld)
  (:requirements :strips)
  (:predicates (clear ?x) (on-table ?x) (arm-empty) (holding ?x) (on ?x ?y))
  (:action pickup :parameters (?ob)
    :precondition (and (clear ?ob) (on-table ?ob) (arm-empty))
    :effect (and (holding ?ob) (not (clear ?ob)) (not (on-table ?ob)) (not (arm-empty))))
  (:action stack :parameters (?ob ?underob)
    :precondition (and (clear ?underob) (holding ?ob))
    :effect (and (arm-empty) (clear ?ob) (on ?ob ?underob)
                 (not (clear ?underob)) (not (holding ?ob)))))
"""
_GRIPPER_ACTIONS = """(define (domain gripper)
  (:requirements :strips)
  (:predicates (room ?r) (ball ?b) (gripper ?g) (at-robby ?r) (at ?b ?r) (free ?g) (carry ?o ?g))
  (:action move :parameters (?from ?to)
    :precondition (and (room ?from) (room ?to) (at-robby ?from))
    :effect (and (at-robby ?to) (not (at-robby ?from))))
  (:action pick :parameters (?obj ?room ?gripper)
    :precondition (and (ball ?obj) (room ?room) (gripper ?gripper)
                       (at ?obj ?room) (at-robby ?room) (free ?gripper))
    :effect (and (carry ?obj ?gripper) (not (at ?obj ?room)) (not (free ?gripper)))))
"""


def _blocksworld_text(rng: random.Random, index: int) -> str:
    """A random tower problem with a sentence describing it, as in a dataset row."""
    blocks = [f"b{i + 1}" for i in range(rng.randint(2, 6))]
    init = [("arm-empty",)] + [("on-table", b) for b in blocks] + [("clear", b) for b in blocks]
    order = rng.sample(blocks, len(blocks))
    goal = [("on", upper, lower) for upper, lower in itertools.pairwise(order)]
    sentence = (
        f"You have {len(blocks)} blocks, each on the table. "
        f"Your goal is to stack them into a single tower with {order[0]} on top."
    )
    problem = render_problem(f"tower_{index}", "blocksworld", blocks, None, tuple(init), tuple(goal))
    return sentence + "\n" + problem


def _gripper_text(rng: random.Random, index: int) -> str:
    """A random ball-moving problem with a sentence describing it."""
    rooms = [f"room{i + 1}" for i in range(rng.randint(2, 3))]
    balls = [f"ball{i + 1}" for i in range(rng.randint(1, 4))]
    grippers = ["gripper1", "gripper2"]
    init: list[tuple[str, ...]] = [("room", r) for r in rooms]
    init += [("ball", b) for b in balls]
    init += [("gripper", g) for g in grippers] + [("free", g) for g in grippers]
    init += [("at-robby", rooms[0])] + [("at", b, rng.choice(rooms)) for b in balls]
    goal = [("at", b, rng.choice(rooms)) for b in balls]
    sentence = (
        f"You have {len(rooms)} rooms, {len(balls)} balls, and 2 grippers. "
        f"The robby is in {rooms[0]}. Your goal is to move the balls."
    )
    objects = rooms + balls + grippers
    problem = render_problem(f"gripper_{index}", "gripper", objects, None, tuple(init), tuple(goal))
    return sentence + "\n" + problem


def pddl_corpus(seed: int = 0, n_problems: int = 40) -> list[str]:
    """A few KB of PDDL-flavoured text: domains, problems, descriptions and the eval prompt."""
    rng = random.Random(seed)
    texts = [_BLOCKSWORLD_ACTIONS, _GRIPPER_ACTIONS, f"{PROBLEM_PROMPT} {DOMAIN_PROMPT}"]
    for index in range(n_problems):
        make = _blocksworld_text if index % 2 == 0 else _gripper_text
        texts.append(make(rng, index))
    return texts


def train_tokenizer(corpus: list[str]) -> Any:  # a transformers PreTrainedTokenizerFast
    """Byte-level BPE (no unknown characters) wrapped as a Gemma-like fast tokenizer."""
    tokenizers = require("tokenizers", "train")
    transformers = require("transformers", "train")
    from tokenizers import decoders, models, pre_tokenizers, trainers

    byte_level = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok = tokenizers.Tokenizer(models.BPE())
    tok.pre_tokenizer = byte_level
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=VOCAB_SIZE,
        special_tokens=SPECIAL_TOKENS,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator(corpus, trainer=trainer)
    return transformers.PreTrainedTokenizerFast(
        tokenizer_object=tok,
        bos_token="<bos>",
        eos_token="<eos>",
        pad_token="<pad>",
        unk_token="<unk>",
        additional_special_tokens=["<start_of_turn>", "<end_of_turn>"],
        chat_template=CHAT_TEMPLATE,
        padding_side="left",
    )


def _is_built(out_dir: Path, seed: int) -> bool:
    """A previous build with the same seed and recipe can be reused as is."""
    marker = out_dir / _MARKER
    if not marker.is_file():
        return False
    return json.loads(marker.read_text()) == {"seed": seed, "version": _BUILD_VERSION}


def build_tiny_model(out_dir: str | Path, *, seed: int = 0) -> Path:
    """Build (or reuse) the tiny model and tokenizer in ``out_dir`` and return that path."""
    out = Path(out_dir)
    if _is_built(out, seed):
        return out
    torch = require("torch", "train")
    transformers = require("transformers", "train")

    tokenizer = train_tokenizer(pddl_corpus(seed))
    config = transformers.Gemma2Config(
        vocab_size=len(tokenizer),
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=1,
        head_dim=32,
        max_position_embeddings=4096,
        sliding_window=4096,
        pad_token_id=tokenizer.pad_token_id,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
    )
    torch.manual_seed(seed)
    model = transformers.Gemma2ForCausalLM(config)
    model.generation_config.eos_token_id = [
        tokenizer.eos_token_id,
        tokenizer.convert_tokens_to_ids("<end_of_turn>"),
    ]
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    (out / _MARKER).write_text(json.dumps({"seed": seed, "version": _BUILD_VERSION}))
    return out


def resolve_model_name(model: str, directory: Path) -> str:
    """The hub id or path to load: ``tiny:SEED`` builds the tiny model into ``directory`` first.

    Evaluation and fine-tuning configs both accept ``tiny:``; this is the one place that reads it.
    """
    if not model.startswith(TINY_PREFIX):
        return model
    seed = int(model[len(TINY_PREFIX):] or 0)
    return str(build_tiny_model(directory, seed=seed).resolve())
