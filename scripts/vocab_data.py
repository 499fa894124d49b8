"""Writes the data of the vocabulary crates (vocab/*/data) from the files
scripts/references.sh installs, and checks that each matches its source.

- vocab/qwen, vocab/deepseek, vocab/llama3, vocab/llama4: copies of
  qwen.tiktoken, deepseek_v3.json, llama3.tiktoken and llama4.tiktoken
  (Meta's llama-models 0.3.0 wheel: the same bytes as `models/llama3/` and
  `models/llama4/tokenizer.model` of its GitHub repository at a9c89c4, whose
  LICENSE and USE_POLICY.md files the crates carry);
- vocab/mistral: tekken_240911.json reduced to the ranks mistral-common
  counts with (default_vocab_size - default_num_special_tokens), one
  `base64 rank` line each;
- vocab/gemma3: taken from the gemini-tokenizer 0.2.0 crate (see
  vocab/gemma3/NOTICE); only checked here, against its published SHA-256;
- vocab/openai: OpenAI's o200k_base and cl100k_base rank files; only
  checked here, against the SHA-256 hashes tiktoken verifies on download.

    python3 scripts/vocab_data.py
"""
import hashlib, json, os, shutil

root = os.path.join(os.path.dirname(__file__), "..")
files = os.path.join(root, "target/references/files")
vocab = os.path.join(root, "vocab")

shutil.copyfile(os.path.join(files, "qwen.tiktoken"), os.path.join(vocab, "qwen/data/qwen.tiktoken"))
shutil.copyfile(os.path.join(files, "deepseek_v3.json"), os.path.join(vocab, "deepseek/data/deepseek_v3.tokenizer.json"))
for llama in ("llama3", "llama4"):
    shutil.copyfile(os.path.join(files, f"{llama}.tiktoken"), os.path.join(vocab, f"{llama}/data/{llama}.tiktoken"))
with open(os.path.join(files, "tekken_240911.json"), encoding="utf-8") as f:
    tekken = json.load(f)
config = tekken["config"]
inner = config["default_vocab_size"] - config["default_num_special_tokens"]
with open(os.path.join(vocab, "mistral/data/tekken_240911.tiktoken"), "w", encoding="ascii") as f:
    for rank, entry in enumerate(tekken["vocab"][:inner]):
        assert entry["rank"] == rank
        f.write(f"{entry['token_bytes']} {rank}\n")
with open(os.path.join(vocab, "gemma3/data/gemma3_cleaned_262144_v2.spiece.model"), "rb") as f:
    digest = hashlib.sha256(f.read()).hexdigest()
assert digest == "1299c11d7cf632ef3b4e11937501358ada021bbdf7c47638d13c0ee982f2e79c", digest
for name, expected in (
    ("o200k_base", "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"),
    ("cl100k_base", "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"),
):
    with open(os.path.join(vocab, f"openai/data/{name}.tiktoken"), "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    assert digest == expected, (name, digest)
print("vocab data written and checked")
