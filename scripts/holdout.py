"""Assembles the multilingual holdout (target/references/holdout/<group>/*.txt)
from real text none of the project's estimators was fitted on:

- prose in English, Russian, Chinese, Japanese, Korean, Arabic, Hindi and
  German: the messages of the translations of Sphinx 8.2.3 (BSD-2-Clause) and
  Django 5.2.8 (BSD-3-Clause); English is their msgids; about 2 KB per file,
  at most 40 files per group;
- code in five languages: Python, JavaScript, CSS and HTML templates of Sphinx
  8.2.3, and Rust of the crate regex-automata from the local cargo registry
  (MIT OR Apache-2.0);
- JSON: LiteLLM's model registry (MIT).

Reads the Sphinx and Django wheels scripts/references.sh downloaded.
"""
import glob, json, os, re, sys, zipfile

root = os.path.join(os.path.dirname(__file__), "..")
refs = os.path.join(root, "target/references")
out = os.path.join(refs, "holdout")
wheel = zipfile.ZipFile(os.path.join(refs, "files/sphinx-8.2.3-py3-none-any.whl"))
CHUNK = 2000
FILES = 40


def write(group, texts):
    """Texts joined by newlines into files of about CHUNK bytes (the last
    one may be shorter), at most FILES of them."""
    os.makedirs(os.path.join(out, group), exist_ok=True)
    chunk, n = "", 0
    for text in texts:
        chunk += text + "\n"
        if len(chunk.encode()) >= CHUNK:
            with open(os.path.join(out, group, f"{n:03}.txt"), "w", encoding="utf-8") as f:
                f.write(chunk)
            chunk, n = "", n + 1
            if n == FILES:
                return n
    if chunk.strip():
        with open(os.path.join(out, group, f"{n:03}.txt"), "w", encoding="utf-8") as f:
            f.write(chunk)
        n += 1
    return n


def po_strings(data, key):
    """The msgid or msgstr strings of a .po file, unescaped, non-empty."""
    strings, current, field = [], None, None
    for line in data.splitlines():
        m = re.match(r'^(msgid|msgstr|msgid_plural|msgstr\[\d+\])\s+"(.*)"$', line)
        if m:
            if current and field == key:
                strings.append(current)
            field, current = m.group(1), m.group(2)
        elif line.startswith('"') and current is not None:
            current += line[1:-1]
        else:
            if current and field == key:
                strings.append(current)
            current, field = None, None
    if current and field == key:
        strings.append(current)
    escapes = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}
    unescape = lambda s: re.sub(r"\\(.)", lambda m: escapes.get(m.group(1), m.group(1)), s)
    return [unescape(s) for s in strings if s]


django = zipfile.ZipFile(os.path.join(refs, "files/django-5.2.8-py3-none-any.whl"))


def catalogs(code):
    """The text of Sphinx's and every Django application's catalog of `code`."""
    names = [f"sphinx/locale/{code}/LC_MESSAGES/sphinx.po"]
    yield wheel.read(names[0]).decode("utf-8")
    for name in sorted(django.namelist()):
        if re.search(rf"/locale/{code}/LC_MESSAGES/django\.po$", name):
            yield django.read(name).decode("utf-8")


counts = {}
for lang, code in [("ru", "ru"), ("zh", "zh_CN"), ("ja", "ja"), ("ko", "ko"), ("ar", "ar"), ("hi", "hi"), ("de", "de")]:
    # Each catalog's first msgstr is its header.
    counts[lang] = write(lang, [s for data in catalogs(code) for s in po_strings(data, "msgstr")[1:]])
counts["en"] = write("en", [s for data in catalogs("de") for s in po_strings(data, "msgid")])


def members(pattern):
    return [wheel.read(n).decode("utf-8", "replace") for n in sorted(wheel.namelist()) if re.search(pattern, n)]


counts["python"] = write("python", members(r"^sphinx/(domains|builders)/.*\.py$"))
counts["javascript"] = write("javascript", members(r"^sphinx/themes/.*\.js$"))
counts["css"] = write("css", members(r"^sphinx/themes/.*\.css(_t)?$"))
counts["html"] = write("html", members(r"^sphinx/themes/.*\.html$"))
cargo = os.environ.get("CARGO_HOME", os.path.expanduser("~/.cargo"))
rust = sorted(glob.glob(os.path.join(cargo, "registry/src/*/regex-automata-0.4.*/src/**/*.rs"), recursive=True))
counts["rust"] = write("rust", [open(p, encoding="utf-8").read() for p in rust])
with open(os.path.join(refs, "files/litellm_models.json"), encoding="utf-8") as f:
    models = json.load(f)
counts["json"] = write("json", [json.dumps({k: v}, indent=2) for k, v in list(models.items())[:400]])
print("holdout files per group:", counts, file=sys.stderr)
