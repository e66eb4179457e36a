#!/usr/bin/env bash
# GPU check, part B: vLLM (CUDA build) with and without the QLoRA adapter, the transformers
# backend on the GPU for comparison, then grade and report.
set -uo pipefail
export PYTHONPATH=/tmp/site HF_HUB_OFFLINE=1 VLLM_NO_USAGE_STATS=1 TOKENIZERS_PARALLELISM=false
cli="python3 -m planetarium.cli"
for spec in "base:" "ft:--adapter /tmp/ft/adapter"; do
  name=${spec%%:*}; extra=${spec#*:}
  start=$(date +%s)
  $cli eval run --config eval/tiny-vllm.yaml --set dtype=float32 $extra --out /tmp/run-vllm-$name 2>&1 | grep -v "WARNING\|INFO" | tail -4
  echo "vllm $name wall $(( $(date +%s) - start )) s"
done
start=$(date +%s)
$cli eval run --config eval/tiny.yaml --set dtype=float32 --set device=cuda --adapter /tmp/ft/adapter --out /tmp/run-hf-ft 2>&1 | tail -3
echo "transformers ft wall $(( $(date +%s) - start )) s"
for r in /tmp/run-vllm-base /tmp/run-vllm-ft /tmp/run-hf-ft; do $cli eval grade $r --workers 8 2>&1 | tail -2; done
$cli eval report /tmp/run-vllm-base /tmp/run-vllm-ft --out /tmp/report 2>&1 | tail -30
cp -r /tmp/report "$OUT/report"
python3 - <<'PY'
import json
def load(p): return {r["id"]: r for r in map(json.loads, open(p + "/completions.jsonl"))}
base, ft, hf = load("/tmp/run-vllm-base"), load("/tmp/run-vllm-ft"), load("/tmp/run-hf-ft")
ids = sorted(set(ft) & set(hf))
print("items", len(ids))
print("prompt ids equal vLLM vs transformers:", sum(ft[i]["prompt_ids_hash"] == hf[i]["prompt_ids_hash"] for i in ids), "/", len(ids))
print("adapter changed vLLM output:", sum(base[i]["completion_ids_hash"] != ft[i]["completion_ids_hash"] for i in ids), "/", len(ids))
print("whole greedy completion identical vLLM-ft vs transformers-ft:", sum(ft[i]["completion_ids_hash"] == hf[i]["completion_ids_hash"] for i in ids), "/", len(ids))
for k in (1, 8, 32):
    print(f"first {k} characters agree:", sum(ft[i]["output"][:k] == hf[i]["output"][:k] for i in ids), "/", len(ids))
PY
