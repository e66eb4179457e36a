"""``eval acp``: ask any backend the ACPBench questions with the published 2-shot prompts.

The prompts and the answer rows come from :func:`planetarium.acp.prompts.run_backend` (the acp
package never imports the inference stack, so the command lives here, on the llm side).  The
backend is built from an evaluation config exactly as ``eval run`` builds it — same checks, same
``tiny:`` model, same sampling settings; the config's dataset fields are not used, ``DATA``
replaces them.

Responses go to a JSONL file, one ``{"id", "task", "kind", "response"}`` line per question (plus
``model`` and ``config_hash``), appended batch by batch through the crash-safe
:class:`~planetarium.llm.store.CompletionLog`; ``planetarium acp score DATA --responses FILE``
reads it as it is.  A rerun skips the questions already answered, and refuses a file written
with another config (its answers would not be comparable).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .config import EvalConfig
from .store import CompletionLog, RunDirError

_PROMPT_FOLDERS = (Path("configs") / "tasks", Path("configs"))


def find_prompts(data: str | Path) -> Path:
    """The published prompt configs (the folder holding ``acp_gen_chat``) next to ``data``:
    ``configs/tasks`` (the ACPBench repository's layout) or ``configs`` in it or a parent."""
    from ..acp.data import AcpDataError

    start = Path(data).resolve()
    for folder in [start, *start.parents]:
        for sub in _PROMPT_FOLDERS:
            if (folder / sub / "acp_gen_chat").is_dir():
                return folder / sub
    raise AcpDataError(f"{data}: no configs/tasks/acp_gen_chat in it or above it; pass --prompts "
                       "with the published prompt configs folder")


def run_acp(config: EvalConfig, data: str | Path, out: str | Path, *,
            prompts: str | Path | None = None, tasks: tuple[str, ...] = (),
            kinds: tuple[str, ...] = (), limit: int | None = None) -> dict[str, Any]:
    """Answer every selected question not yet in ``out``; return a short summary."""
    from tqdm import tqdm

    from ..acp.data import load_items, select_items
    from ..acp.prompts import run_backend
    from .availability import check_inputs
    from .backends import make_backend
    from .runner import resolve_model

    check_inputs(config)  # before any file is written or model built
    prompts = Path(prompts) if prompts is not None else find_prompts(data)
    limit = limit if limit is not None else config.limit
    items = select_items(load_items(data), tasks, kinds, limit)
    out = Path(out)
    config_hash = config.config_hash()
    with CompletionLog(out) as log:
        others = {r.get("config_hash") for r in log.records} - {config_hash}
        if others:
            raise RunDirError(f"{out}: holds answers of config_hash {sorted(others)[0]}, not "
                              f"{config_hash}; choose another --out for another model or config")
        done = {(r.get("kind"), r.get("task"), str(r["id"])) for r in log.records}
        todo = [i for i in items if (i.kind, i.task, i.id) not in done]
        summary = {"out": str(out), "questions": len(items), "skipped": len(items) - len(todo),
                   "generated": len(todo), "errors": 0}
        if not todo:
            return summary
        backend = make_backend(config, resolve_model(config, out.parent))
        size = config.batch_size
        with tqdm(total=len(items), initial=len(items) - len(todo), desc="eval acp",
                  unit="question") as bar:
            for start in range(0, len(todo), size):
                batch = todo[start:start + size]
                rows = [{**row, "model": config.model, "config_hash": config_hash}
                        for row in run_backend(batch, backend, prompts, batch_size=len(batch))]
                log.append(rows)
                summary["errors"] += sum("error" in row for row in rows)
                bar.update(len(batch))
        backend.close()
    return summary
