"""Times the reference implementations that have no Rust binding on the same
160 corpus files `cargo bench -p budget-differential --bench tokenizer_files`
counts, and prints MiB/s per file, to set beside the bench's figures.

Google's `sentencepiece` (the C++ library behind its Python module, one
call per file, ids only) on Mistral's v3 model and its own English unigram
test model; Hugging Face `tokenizers` (Rust behind Python) on DeepSeek V3's
tokenizer.json, for comparison with the bench's in-process figure. Each
figure is the best of five passes over all files.

    target/references/venv/bin/python scripts/reference_speed.py
"""
import glob, os, time

import sentencepiece
from tokenizers import Tokenizer

root = os.path.join(os.path.dirname(__file__), "..")
files = os.path.join(root, "target/references/files")
texts = []
for path in sorted(glob.glob(os.path.join(root, "budget-runtime/tests/data/corpus/*/*"))):
    with open(path, encoding="utf-8") as f:
        texts.append(f.read())
size = sum(len(t.encode()) for t in texts)


def speed(count):
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        for text in texts:
            count(text)
        best = min(best, time.perf_counter() - start)
    return size / best / (1 << 20)


for name in ["mistral_v3.model", "sp_unigram_en.model"]:
    sp = sentencepiece.SentencePieceProcessor(model_file=os.path.join(files, name))
    print(f"{name}\tsentencepiece\t{speed(sp.encode):.2f} MiB/s")
deepseek = Tokenizer.from_file(os.path.join(files, "deepseek_v3.json"))
print(f"deepseek_v3.json\ttokenizers (Python)\t{speed(lambda t: deepseek.encode(t, add_special_tokens=False)):.2f} MiB/s")
