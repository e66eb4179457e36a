#!/usr/bin/env bash
# GPU check, part A: install the staged wheels and this package, then 4-bit QLoRA on the GPU.
set -uo pipefail
export PYTHONPATH=/tmp/site HF_HUB_OFFLINE=1 VLLM_NO_USAGE_STATS=1 TOKENIZERS_PARALLELISM=false
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site dist/planetarium-*.whl
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv
python3 -c "import sys, torch, transformers, peft, bitsandbytes, rustworkx; print(sys.version.split()[0], 'torch', torch.__version__, 'cuda', torch.cuda.is_available(), 'transformers', transformers.__version__, 'peft', peft.__version__, 'bnb', bitsandbytes.__version__)"
python3 -c "import sys, planetarium; print('import planetarium loads:', [m for m in ('torch','vllm','transformers','peft','datasets') if m in sys.modules])"
start=$(date +%s)
python3 -m planetarium.cli finetune --config finetune/tiny.yaml --out /tmp/ft 2>&1 | grep -v "Warning\|warn" | tail -15
echo "finetune wall $(( $(date +%s) - start )) s"
cp /tmp/ft/finetune_record.json "$OUT/" 2>/dev/null
python3 - <<'PY'
import json
r = json.load(open("/tmp/ft/finetune_record.json"))
print(json.dumps({k: r.get(k) for k in ("quantization", "train", "device", "environment")}, indent=1)[:3000])
PY
