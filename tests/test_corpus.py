"""tests/data/CORPUS.md and the trees it lists are what benchmarks/corpus.py writes with the
tool."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def corpus_script():
    spec = importlib.util.spec_from_file_location("corpus", ROOT / "benchmarks" / "corpus.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_corpus_is_what_the_tool_writes(tmp_path: Path) -> None:
    corpus = corpus_script()
    text = corpus.write(tmp_path)
    assert text == (corpus.DATA / "CORPUS.md").read_text(encoding="utf-8")
    for _, name, _, _ in corpus.CONVERTED:
        assert (tmp_path / name).read_bytes() == (corpus.DATA / name).read_bytes(), name
