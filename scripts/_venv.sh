# Sourced by scripts/run and scripts/test: create .venv when missing and install a requirements file into it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -r "$1" 2>&1 | grep -v "is ignored: it is neither a file nor a directory" || true
.venv/bin/python -c "import django, torch, sentence_transformers, tiktoken" \
  || { echo "dependency install failed: see the pip output above" >&2; exit 1; }
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 TOKENIZERS_PARALLELISM=false HF_HUB_DISABLE_PROGRESS_BARS=1
