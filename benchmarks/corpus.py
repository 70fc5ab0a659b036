"""Write tests/data/CORPUS.md (and the brace trees it lists) with the tool itself.

Each tree whose original file is in tests/data/formats/ is converted with
``strategytree convert`` (a real process of the console command's code) into
tests/data/, then replayed to get its figures; the table lists them.  Trees
whose originals are not in the repository (converted before ``convert``
existed) are listed apart, with their figures replayed too.

    python benchmarks/corpus.py            # rewrite the trees and CORPUS.md
    python benchmarks/corpus.py --check    # say whether they are what the tool writes

tests/test_corpus.py checks that CORPUS.md and the converted trees are what
this script writes.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import strategytree as st

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
FORMATS = DATA / "formats"
ARFST = "arfst23/Mastermind"

#: (original in tests/data/formats, tree written in tests/data, game, origin)
CONVERTED = (
    ("arfst23-solution-4-6-6.txt", "arfst-4-6-6.txt", "MM(4,6)",
     f"{ARFST} `solution-4-6-6` (optimal expected case, Koyama & Lai's figure)"),
    ("mikemag-knuth-4p6c.gv", "mikemag-knuth-4-6.txt", "MM(4,6)",
     "mikemag/Mastermind `results/mastermind_strategy_knuth_4p6c.gv` (Knuth's minimax tree)"),
)

#: trees whose originals are not in the repository: (tree in tests/data, game, origin)
EARLIER = (
    ("arfst-4-6-5.txt", "MM(4,6)", f"{ARFST} `solution-4-6-5` (optimal with at most 5 guesses)"),
    ("arfst-4-7-6.txt", "MM(4,7)", f"{ARFST} `solution-4-7-6` (Ville's optimal figure)"),
    ("arfst-4-8-6.txt", "MM(4,8)", f"{ARFST} `solution-4-8-6`"),
    ("arfst-4-8-7.txt", "MM(4,8)", f"{ARFST} `solution-4-8-7`"),
    ("arfst-4-6-unique.txt", "4 distinct of 6, guesses distinct too",
     f"{ARFST} `solution-4-6-unique`"),
    ("arfst-4-7-unique.txt", "4 distinct of 7, guesses distinct too",
     f"{ARFST} `solution-4-7-unique`"),
    ("arfst-4-8-unique.txt", "4 distinct of 8, guesses distinct too",
     f"{ARFST} `solution-4-8-unique`"),
)

HEAD = """# External strategy trees

Real strategy trees that other people published, in the code-golf brace
grammar (colours `0..c-1` or `1..c` of the original became `A..`).  They are
data for checking a verifier and for comparing builders; no code of the
originals is here.  This file is written by `python benchmarks/corpus.py`:
the trees whose original is in `tests/data/formats/` were converted from it by
`strategytree convert`, and every figure below was recomputed by replaying
each secret through the tree.

| file | game | secrets | total guesses | max guesses | origin |
|---|---|---|---|---|---|
"""

FOOT = """
The trees listed from `arfst-4-6-5.txt` on were converted before `strategytree
convert` existed, from {arfst} at commit 75f69bdf1179409d1305ed9bfa79a8ded5693eeb;
their originals are not in this repository (add them to `tests/data/formats/` and
to `CONVERTED` in `benchmarks/corpus.py` to have them converted by the tool too).
"""


def game_of(description: str) -> st.Game:
    """The game a row of the table names."""
    if description.startswith("MM("):
        pegs, colors = description[3:-1].split(",")
        return st.mastermind(int(pegs), int(colors))
    pegs, _, _, colors = description.split(",")[0].split()
    return st.distinct(int(pegs), int(colors), distinct_guesses=True)


def convert(original: Path, target: Path) -> None:
    """``strategytree convert ORIGINAL -o TARGET --force`` as a process."""
    subprocess.run(
        [sys.executable, "-m", "strategytree", "convert", str(original), "-o", str(target),
         "--force"],
        check=True, capture_output=True,
    )


def row(path: Path, description: str, origin: str) -> str:
    """The table's row of one tree, its figures replayed."""
    game = game_of(description)
    report = st.verify(st.load(path), game, strict=True)
    if not report.valid:
        raise SystemExit(f"{path}: not a valid strategy for {description}")
    return (f"| {path.name} | {description} | {report.secrets} | {report.total} | "
            f"{report.max_guesses} | {origin} |\n")


def write(folder: Path) -> str:
    """Convert the originals into ``folder``; the text of CORPUS.md."""
    rows = []
    for original, name, description, origin in CONVERTED:
        convert(FORMATS / original, folder / name)
        rows.append(row(folder / name, description, f"{origin}, converted from "
                        f"`formats/{original}`"))
    for name, description, origin in EARLIER:
        rows.append(row(DATA / name, description, origin))
    return HEAD + "".join(rows) + FOOT.format(arfst=ARFST)


def main() -> int:
    """Rewrite the corpus (or, with ``--check``, compare it with what is there)."""
    check = "--check" in sys.argv[1:]
    if not check:
        (DATA / "CORPUS.md").write_text(write(DATA), encoding="utf-8")
        print(f"wrote {DATA / 'CORPUS.md'}")
        return 0
    with tempfile.TemporaryDirectory() as folder:
        text = write(Path(folder))
        same = text == (DATA / "CORPUS.md").read_text(encoding="utf-8") and all(
            (Path(folder) / name).read_bytes() == (DATA / name).read_bytes()
            for _, name, _, _ in CONVERTED
        )
    print("the corpus is what the tool writes" if same else "the corpus differs: rewrite it")
    return 0 if same else 1


if __name__ == "__main__":
    from _common import print_machine  # here: the tests load this file as a module

    print_machine()
    raise SystemExit(main())
