"""Prompts as in the published 2-shot configs.

The published lm-evaluation-harness configs (``configs/tasks/{acp_gen_chat, boolq_cot_2shot,
mcq_cot_2shot}/<task>.yaml``, each ``include``-ing a shared ``_..._yaml``) hold the two few-shot
examples and the ``doc_to_text`` template.  We read them (``yaml.safe_load``) rather than copy
them, and build a chat: each example as a user turn and the example's answer as the assistant
turn, then the question.  Only ``{{context}}`` and ``{{question}}`` are substituted, the only
fields the templates use.

The acpbench benchmark (:mod:`planetarium.benchmarks.acpbench`) asks each question with
:meth:`PromptConfig.messages`; this package never imports the inference stack.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .data import AcpDataError, AcpItem

_FOLDERS = {"gen": "acp_gen_chat", "bool": "boolq_cot_2shot", "mcq": "mcq_cot_2shot"}
_FILES = {"areach": "act_reach", "nexta": "next_act"}


@dataclass(frozen=True)
class PromptConfig:
    """One task's template and few-shot examples."""

    doc_to_text: str
    shots: tuple[tuple[str, str, str], ...]  # (context, question, answer)

    def render(self, context: str, question: str) -> str:
        return self.doc_to_text.replace("{{context}}", context).replace("{{question}}", question)

    def messages(self, item: AcpItem) -> list[dict[str, str]]:
        chat: list[dict[str, str]] = []
        for context, question, answer in self.shots:
            chat.append({"role": "user", "content": self.render(context, question)})
            chat.append({"role": "assistant", "content": answer})
        chat.append({"role": "user", "content": self.render(item.context, item.question)})
        return chat


def _yaml(path: Path) -> dict:
    import yaml

    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as err:
        raise AcpDataError(f"{path}: cannot read the prompt config: {err}") from err
    if not isinstance(data, dict):
        raise AcpDataError(f"{path}: expected a YAML mapping")
    return data


def load_prompt_config(config_dir: str | Path, kind: str, task: str) -> PromptConfig:
    """The prompt of ``task`` (``kind`` gen, bool or mcq) from the published config folder."""
    folder = Path(config_dir) / _FOLDERS[kind]
    path = folder / f"{_FILES.get(task, task)}.yaml"
    if not path.is_file():
        raise AcpDataError(f"{path}: no prompt config for {kind}/{task}")
    data = _yaml(path)
    if "include" in data:
        data = {**_yaml(folder / str(data["include"])), **data}
    template = data.get("doc_to_text")
    samples = (data.get("fewshot_config") or {}).get("samples")
    if not isinstance(template, str):
        raise AcpDataError(f"{path}: key 'doc_to_text' must be a string template")
    if not isinstance(samples, list):
        raise AcpDataError(f"{path}: key 'fewshot_config.samples' must be a list")
    shots = []
    for number, sample in enumerate(samples):
        if not isinstance(sample, dict) or not all(
                isinstance(sample.get(k), str) for k in ("context", "question", "answer")):
            raise AcpDataError(f"{path}: fewshot sample {number}: expected string keys "
                               "'context', 'question', 'answer'")
        shots.append((sample["context"], sample["question"], sample["answer"]))
    return PromptConfig(template, tuple(shots))

