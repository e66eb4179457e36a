export PYTHONPATH=/tmp/site HF_HUB_OFFLINE=1 VLLM_NO_USAGE_STATS=1 TOKENIZERS_PARALLELISM=false
c="python3 -m planetarium.cli"
s=$(date +%s); $c eval run --config eval/tiny-vllm.yaml --out /tmp/v-base > /tmp/l1 2>&1; echo "vllm base bf16 rc $? $(( $(date +%s)-s ))s"
s=$(date +%s); $c eval run --config eval/tiny.yaml --set dtype=bfloat16 --set device=cuda --adapter /tmp/ft/adapter --out /tmp/h-ft > /tmp/l2 2>&1; echo "hf ft rc $? $(( $(date +%s)-s ))s"
$c eval run --config eval/tiny.yaml --set dtype=bfloat16 --set device=cuda --out /tmp/h-base > /tmp/l3 2>&1; echo "hf base rc $?"
for r in /tmp/v-base /tmp/run-vllm-ft-bfloat16 /tmp/h-ft /tmp/h-base; do $c eval grade $r --workers 8 --no-progress 2>&1 | head -1; done
$c eval report /tmp/v-base /tmp/run-vllm-ft-bfloat16 --out $OUT/report > /dev/null 2>&1; echo report $?
python3 - <<'PY'
import json
def load(p): return {r["id"]: r for r in map(json.loads, open(p + "/completions.jsonl"))}
vb, vf, hf, hb = (load(p) for p in ("/tmp/v-base", "/tmp/run-vllm-ft-bfloat16", "/tmp/h-ft", "/tmp/h-base"))
ids = sorted(vf); n = len(ids)
print("items", n)
print("prompt_ids_hash equal vLLM vs transformers:", sum(vf[i]["prompt_ids_hash"] == hf[i]["prompt_ids_hash"] for i in ids), "/", n)
print("adapter changes vLLM output:", sum(vb[i]["completion_ids_hash"] != vf[i]["completion_ids_hash"] for i in ids), "/", n)
print("adapter changes transformers output:", sum(hb[i]["completion_ids_hash"] != hf[i]["completion_ids_hash"] for i in ids), "/", n)
print("identical completion vLLM vs transformers ft:", sum(vf[i]["completion_ids_hash"] == hf[i]["completion_ids_hash"] for i in ids), " base:", sum(vb[i]["completion_ids_hash"] == hb[i]["completion_ids_hash"] for i in ids), "/", n)
for k in (1, 4, 16):
    print(f"first {k} chars agree ft:", sum(vf[i]["output"][:k] == hf[i]["output"][:k] for i in ids), " base:", sum(vb[i]["output"][:k] == hb[i]["output"][:k] for i in ids))
PY
