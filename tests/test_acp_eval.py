"""`planetarium eval acp`: a real (tiny, local) model answers dev questions with the published
2-shot prompts; the responses resume like `eval run` and feed `planetarium acp score`."""

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from planetarium.acp.data import AcpDataError
from planetarium.cli import main
from planetarium.llm.acp_run import find_prompts

FIXTURES = Path(__file__).parent / "fixtures" / "acp"


def _config(tmp_path: Path, model: Path, **fields) -> Path:
    path = tmp_path / "tiny-acp.yaml"
    path.write_text(yaml.safe_dump({
        "name": "tiny-acp", "backend": "transformers", "model": str(model), "device": "cpu",
        "dataset": "unused: eval acp reads DATA", "max_new_tokens": 6, "batch_size": 2,
        **fields}))
    return path


def _eval(config: Path, out: Path, *extra: str):
    return CliRunner().invoke(main, [
        "eval", "acp", str(FIXTURES / "land"), "--config", str(config), "--out", str(out),
        "--prompts", str(FIXTURES / "configs"), "--kind", "bool", "--kind", "mcq", *extra])


def test_tiny_model_answers_resumes_and_feeds_acp_score(tmp_path, tiny_model, one_thread):  # noqa: F811
    config, out = _config(tmp_path, tiny_model), tmp_path / "responses.jsonl"
    first = _eval(config, out, "--limit", "3")
    assert first.exit_code == 0, first.output
    assert "3 questions, 0 already answered, 3 generated" in first.output
    again = _eval(config, out, "--limit", "4")
    assert again.exit_code == 0, again.output
    assert "4 questions, 3 already answered, 1 generated" in again.output
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["kind"], r["task"]) for r in rows] == [("bool", "land")] * 3 + [("mcq", "land")]
    assert all(isinstance(r["response"], str) for r in rows)
    assert len({(r["kind"], r["id"]) for r in rows}) == 4

    results = tmp_path / "results.jsonl"
    scored = CliRunner().invoke(main, ["acp", "score", str(FIXTURES / "land"), "--responses",
                                       str(out), "--out", str(results)])
    assert scored.exit_code == 0, scored.output
    graded = {(r["kind"], r["id"]): r for r in map(json.loads, results.read_text().splitlines())}
    assert all(graded[(r["kind"], r["id"])]["status"] != "missing" for r in rows)


def test_another_config_does_not_mix_into_the_same_file(tmp_path, tiny_model, one_thread):  # noqa: F811
    out = tmp_path / "responses.jsonl"
    assert _eval(_config(tmp_path, tiny_model), out, "--limit", "1").exit_code == 0
    other = _eval(_config(tmp_path, tiny_model, max_new_tokens=7), out, "--limit", "2")
    assert other.exit_code == 1 and "holds answers of config_hash" in other.output
    assert len(out.read_text().splitlines()) == 1


def test_prompts_are_found_beside_the_dataset_folder(tmp_path):
    (tmp_path / "configs" / "tasks" / "acp_gen_chat").mkdir(parents=True)
    (tmp_path / "dataset" / "app").mkdir(parents=True)
    assert find_prompts(tmp_path / "dataset" / "app") == (tmp_path / "configs" / "tasks").resolve()
    with pytest.raises(AcpDataError, match="pass --prompts"):
        find_prompts(tmp_path.parent / "elsewhere")


def test_the_command_module_imports_no_inference_stack():
    import subprocess
    import sys

    code = ("import sys, planetarium.llm.cli, planetarium.llm.acp_run; print(' '.join(m for m in "
            "('torch', 'transformers', 'vllm', 'datasets') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == []
