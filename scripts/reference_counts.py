"""Counts every sample of the differential tests with the reference
implementation of each tokenizer file that scripts/references.sh installed,
and writes target/references/counts.jsonl: one JSON object per sample with
its name, text and count per tokenizer.

References: OpenAI's `tiktoken` (Llama 3 and 4 with the split patterns of
Meta's `llama_models`; Qwen with the pattern and NFC normalisation of Qwen's
tokenizer code), `mistral-common`'s Tekkenizer, Hugging Face `tokenizers`
(DeepSeek V3's tokenizer.json), Google's `sentencepiece` (Mistral's
SentencePiece models v1, v3 and v7; its own unigram test models,
English and Japanese, with NFKC character maps; Gemma 3's model, which
vocab/gemma3 ships). Ordinary encoding: no BOS/EOS, special-token
text counted as text where the reference allows it.

Samples: the multilingual samples and the 160 corpus files of budget-runtime's
test data, plus random strings of every Unicode plane (seeded).
"""
import base64, glob, json, os, random, sys, tomllib, unicodedata

root = os.path.join(os.path.dirname(__file__), "..")
files = os.path.join(root, "target/references/files")

import tiktoken
import sentencepiece
from tokenizers import Tokenizer
from mistral_common.tokens.tokenizers.tekken import Tekkenizer

CL100K = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
O200K = r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+"""
QWEN = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"


def ranks(name):
    with open(os.path.join(files, name), "rb") as f:
        return {base64.b64decode(t): int(r) for t, r in (l.split() for l in f if l.strip())}


def tiktoken_counter(name, pattern, nfc=False):
    enc = tiktoken.Encoding(name, pat_str=pattern, mergeable_ranks=ranks(name), special_tokens={})
    if nfc:
        return lambda text: len(enc.encode_ordinary(unicodedata.normalize("NFC", text)))
    return lambda text: len(enc.encode_ordinary(text))


tekken = Tekkenizer.from_file(os.path.join(files, "tekken_240911.json"))
deepseek = Tokenizer.from_file(os.path.join(files, "deepseek_v3.json"))
def sentencepiece_counter(name, directory=files):
    sp = sentencepiece.SentencePieceProcessor(model_file=os.path.join(directory, name))
    return lambda text: len(sp.encode(text))


counters = {
    "llama3.tiktoken": tiktoken_counter("llama3.tiktoken", CL100K),
    "llama4.tiktoken": tiktoken_counter("llama4.tiktoken", O200K),
    "qwen.tiktoken": tiktoken_counter("qwen.tiktoken", QWEN, nfc=True),
    "tekken_240911.json": lambda text: len(tekken.encode(text, bos=False, eos=False)),
    "deepseek_v3.json": lambda text: len(deepseek.encode(text, add_special_tokens=False)),
    "mistral_v1.model": sentencepiece_counter("mistral_v1.model"),
    "mistral_v3.model": sentencepiece_counter("mistral_v3.model"),
    "mistral_v7.model": sentencepiece_counter("mistral_v7.model"),
    "sp_unigram_en.model": sentencepiece_counter("sp_unigram_en.model"),
    "sp_ja.model": sentencepiece_counter("sp_ja.model"),
    # Gemma 3's model, shipped in vocab/gemma3 (Gemini counts with it).
    "gemma3": sentencepiece_counter(
        "gemma3_cleaned_262144_v2.spiece.model", os.path.join(root, "vocab/gemma3/data")),
}

samples = []
data = os.path.join(root, "budget-runtime/tests/data")
with open(os.path.join(data, "multilingual.toml"), "rb") as f:
    for s in tomllib.load(f)["sample"]:
        samples.append(("multilingual/" + s["name"], s["text"]))
for path in sorted(glob.glob(os.path.join(data, "corpus/*/*"))):
    with open(path, encoding="utf-8") as f:
        samples.append(("corpus/" + os.path.relpath(path, os.path.join(data, "corpus")), f.read()))
rng = random.Random(21)
planes = [(0x20, 0x7F), (0xA0, 0x2FF), (0x400, 0x4FF), (0x600, 0x6FF), (0x900, 0x97F),
          (0x3040, 0x30FF), (0x4E00, 0x9FFF), (0xAC00, 0xD7A3), (0x1F300, 0x1FAFF), (0x20000, 0x2A6DF)]
for i in range(200):
    chars = []
    for _ in range(rng.randrange(1, 120)):
        lo, hi = rng.choice(planes)
        c = rng.randrange(lo, hi + 1)
        chars.append(rng.choice([chr(c), " ", "\n", "  ", "'s", "123", "\t"]) if rng.random() < 0.2 else chr(c))
    samples.append((f"random/{i}", "".join(chars)))

out = os.path.join(root, "target/references/counts.jsonl")
with open(out, "w", encoding="utf-8") as f:
    for name, text in samples:
        counts = {k: c(text) for k, c in counters.items()}
        f.write(json.dumps({"name": name, "text": text, "counts": counts}, ensure_ascii=False) + "\n")
print(f"{len(samples)} samples, {len(counters)} tokenizers -> {out}", file=sys.stderr)
