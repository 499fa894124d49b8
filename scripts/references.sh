#!/usr/bin/env bash
# Installs the reference tokenizers the differential tests compare against,
# into target/references (nothing outside the repository, nothing committed):
#
# - a Python virtual environment with the reference implementations
#   (`tiktoken`, Hugging Face `tokenizers`, `mistral-common`, `sentencepiece`)
#   and the official MCP client SDK (`mcp`), pinned;
# - real tokenizer files, taken from the PyPI packages that ship them (wheels
#   downloaded without their dependencies, pinned by version and SHA-256),
#   each beside the licence it is distributed under:
#     llama3.tiktoken, llama4.tiktoken  llama-models 0.3.0 (Meta, Llama 3 / 4 Community Licence)
#     qwen.tiktoken                     dashscope 2.0.2 (Alibaba, Apache-2.0)
#     deepseek_v3.json                  litellm 1.110.2 (DeepSeek's tokenizer.json, MIT)
#     tekken_240911.json                mistral-common 1.13.1 (Mistral AI, Apache-2.0)
#     mistral_v1.model, _v3, _v7        mistral-common 1.13.1: Mistral's SentencePiece models
#     sp_unigram_en.model, sp_ja.model  sentencepiece 0.2.3 source: its unigram test models
#                                       (Apache-2.0)
#     gguf/ggml-vocab-*.gguf            llama-cpp-python 0.3.36 source: llama.cpp's
#                                       vocabulary-only GGUF files with its tokenizer
#                                       tests' texts and expected ids (MIT)
#     sphinx-8.2.3-py3-none-any.whl     Sphinx (BSD-2-Clause) and Django (BSD-3-Clause):
#     django-5.2.8-py3-none-any.whl     translations and code for the multilingual
#                                       holdout (scripts/holdout.py)
#
# Then it counts the differential tests' samples with the references
# (scripts/reference_counts.py -> target/references/counts.jsonl).
#
# Idempotent: a finished install (target/references/.done) is kept; the
# counts are written afresh (about 8 s).
set -euo pipefail
cd "$(dirname "$0")/.."
dest=target/references
if [ ! -f "$dest/.done" ]; then
rm -rf "$dest"
mkdir -p "$dest/files" "$dest/wheels"

python3 -m venv "$dest/venv"
"$dest/venv/bin/pip" install --quiet --disable-pip-version-check \
    tiktoken==0.14.0 tokenizers==0.23.3 mistral-common==1.13.1

fetch_wheel() { # name==version sha256
    "$dest/venv/bin/pip" download --quiet --disable-pip-version-check --no-deps \
        "$1" -d "$dest/wheels"
    local wheel
    wheel=$(ls "$dest/wheels/"*"$(echo "${1%%==*}" | tr - _)"-"${1##*==}"-*.whl)
    echo "$2  $wheel" | sha256sum --check --quiet
    echo "$wheel"
}
extract() { # wheel member target
    python3 -c 'import sys, zipfile; sys.stdout.buffer.write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]))' "$1" "$2" >"$dest/files/$3"
}

w=$(fetch_wheel llama-models==0.3.0 7f77f78ff13fca09f70d76a376aff6414cd901623fb9d57e69c2f8367a73032f)
extract "$w" llama_models/llama3/tokenizer.model llama3.tiktoken
extract "$w" llama_models/llama4/tokenizer.model llama4.tiktoken
# The wheel's licence file points at the Llama licences (Llama 3 / Llama 4
# Community Licence Agreements).
extract "$w" llama_models-0.3.0.dist-info/licenses/LICENSE llama.LICENSE

w=$(fetch_wheel dashscope==2.0.2 0602d1800f7433bdb7953560986eaf5146454ed3988636c0a91963ba24e74258)
extract "$w" dashscope/resources/qwen.tiktoken qwen.tiktoken
extract "$w" dashscope-2.0.2.dist-info/licenses/LICENSE qwen.LICENSE

w=$(fetch_wheel litellm==1.110.2 9d94d1c7d524b6fd10c14f9c8c6c4f0ac31705f9964ac59dcfd8337c046d8917)
extract "$w" litellm/litellm_core_utils/tokenizers/deepseek_tokenizer.json deepseek_v3.json
extract "$w" litellm/litellm_core_utils/tokenizers/deepseek_tokenizer_LICENSE deepseek_v3.LICENSE
extract "$w" litellm/model_prices_and_context_window_backup.json litellm_models.json

site=$("$dest/venv/bin/python" -c 'import mistral_common, os; print(os.path.dirname(mistral_common.__file__))')
cp "$site/data/tekken_240911.json" "$dest/files/tekken_240911.json"
cp "$site/../mistral_common-1.13.1.dist-info/licenses/LICENSE" "$dest/files/tekken.LICENSE"
# Real multilingual text and code for the estimators' holdout (BSD-2-Clause).
w=$(fetch_wheel sphinx==8.2.3 4405915165f13521d875a8c29c8970800a0141c14cc5416a38feca4ea5d9b9c3)
cp "$w" "$dest/files/"
w=$(fetch_wheel django==5.2.8 37e687f7bd73ddf043e2b6b97cfe02fcbb11f2dbb3adccc6a2b18c6daa054d7f)
cp "$w" "$dest/files/"
rm -rf "$dest/wheels"
touch "$dest/.done"
fi
# Source packages whose build needs more than pip can prepare here: fetched
# from PyPI's index by name and version, checked against their SHA-256.
fetch_sdist() { # name version sha256 -> path
    local out="$dest/sdist/$1-$2.tar.gz"
    mkdir -p "$dest/sdist"
    if [ ! -f "$out" ]; then
        python3 - "$1" "$2" "$out" <<'PY'
import re, sys, urllib.request
name, version, out = sys.argv[1:]
index = urllib.request.urlopen(f"https://pypi.org/simple/{name}/").read().decode()
file = f"{name.replace('-', '_')}-{version}.tar.gz"
links = [l for l in re.findall(r'href="([^"]+)"', index) if file in l or f"{name}-{version}.tar.gz" in l]
if not links:
    sys.exit(f"{name} {version}: no source package in the index")
with open(out, "wb") as f:
    f.write(urllib.request.urlopen(links[0].replace("&amp;", "&")).read())
PY
    fi
    echo "$3  $out" | sha256sum --check --quiet
    echo "$out"
}
if [ ! -f "$dest/.done-sources" ]; then
"$dest/venv/bin/pip" install --quiet --disable-pip-version-check sentencepiece==0.2.3
site=$("$dest/venv/bin/python" -c 'import mistral_common, os; print(os.path.dirname(mistral_common.__file__))')
cp "$site/data/tokenizer.model.v1" "$dest/files/mistral_v1.model"
cp "$site/data/mistral_instruct_tokenizer_240323.model.v3" "$dest/files/mistral_v3.model"
cp "$site/data/mistral_instruct_tokenizer_241114.model.v7" "$dest/files/mistral_v7.model"
tarball=$(fetch_sdist sentencepiece 0.2.3 21618ad31f0453a1ebf5ec58defed99758d54af0b670546ecac639ddd8b86fbd)
tar -xzf "$tarball" -O sentencepiece-0.2.3/test/botchan_en_unigram_1000.model >"$dest/files/sp_unigram_en.model"
tar -xzf "$tarball" -O sentencepiece-0.2.3/test/kyoto_ja_unigram_8000.model >"$dest/files/sp_ja.model"
tar -xzf "$tarball" -O sentencepiece-0.2.3/sentencepiece/LICENSE >"$dest/files/sentencepiece.LICENSE"
tarball=$(fetch_sdist llama-cpp-python 0.3.36 832db0699007f1be95a7e41ef12e88926b02ba836461e36a36372db2760c1a2e)
rm -rf "$dest/files/gguf" && mkdir -p "$dest/files/gguf"
tar -xzf "$tarball" -C "$dest/files/gguf" --strip-components=4 --wildcards \
    'llama_cpp_python-0.3.36/vendor/llama.cpp/models/ggml-vocab-*'
tar -xzf "$tarball" -O llama_cpp_python-0.3.36/vendor/llama.cpp/LICENSE >"$dest/files/gguf/llama.cpp.LICENSE"
rm -rf "$dest/sdist"
touch "$dest/.done-sources"
fi
# The official MCP Python SDK, for the end-to-end test of `budget mcp`
# (scripts/mcp_client.py); added to an install made before it was needed.
"$dest/venv/bin/python" -c 'import mcp' 2>/dev/null ||
    "$dest/venv/bin/pip" install --quiet --disable-pip-version-check mcp==2.3.0
"$dest/venv/bin/python" scripts/reference_counts.py
rm -rf "$dest/holdout"
"$dest/venv/bin/python" scripts/holdout.py
