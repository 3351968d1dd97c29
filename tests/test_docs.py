"""The documents' links lead somewhere.

The README, ``docs/`` and the results pages link to one another by relative paths,
often to a section (``docs/COMMANDS.md#solve-exact-optimal-strategies``). A page moved
or a heading renamed breaks such a link silently; these tests read every relative link
of those pages and check that its file exists and, for a Markdown target, that its
anchor names a heading there, spelt as GitHub spells it (:func:`github_anchor`).
"""
import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md"),
                *(ROOT / "results").glob("*.md")])
#: ``[text](target)`` or ``[text](target#anchor)``, the target without spaces.
LINK = re.compile(r"\]\(([^()#\s]*)(?:#([^()\s]*))?\)")


def github_anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as
    hyphens.

    >>> github_anchor("hint: exact advice from any position, grading conflicting answers")
    'hint-exact-advice-from-any-position-grading-conflicting-answers'
    >>> github_anchor("Side by side with the C++ exact solver")
    'side-by-side-with-the-c-exact-solver'
    """
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """The anchors of ``page``'s headings (outside code blocks); a repeated heading's
    later anchors get ``-1``, ``-2``, ... as on GitHub."""
    found, seen, code = set(), {}, False
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            code = not code
        heading = None if code else re.match(r"#{1,6} (.*)", line)
        if heading:
            slug = github_anchor(heading.group(1))
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            found.add(slug if n == 0 else f"{slug}-{n}")
    return found


def links(page: Path):
    """``(target path, anchor or None)`` of every relative link of ``page``."""
    text = page.read_text(encoding="utf-8")
    for target, anchor in LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue  # http:, https:, mailto:
        path = Path(os.path.normpath(page.parent / target)) if target else page
        yield path, anchor or None


def test_there_are_pages_and_links_to_check():
    assert ROOT / "README.md" in PAGES and len(PAGES) > 10
    assert sum(1 for page in PAGES for _ in links(page)) > 100


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_leads_to_a_file_and_a_heading(page):
    broken = []
    for path, anchor in links(page):
        if not path.exists():
            broken.append(f"{path.relative_to(ROOT)}: no such file")
        elif anchor and path.suffix == ".md" and anchor not in anchors(path):
            broken.append(f"{path.relative_to(ROOT)}#{anchor}: no such heading")
    assert not broken, broken


def test_a_renamed_heading_breaks_its_links(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("# Title\n\n## Two words\n\n```\n# not a heading\n```\n\n## Two words\n")
    assert anchors(page) == {"title", "two-words", "two-words-1"}
    page.write_text("[a](#two-words) [b](other.md) [c](https://example.org/x)\n")
    assert list(links(page)) == [(page, "two-words"), (tmp_path / "other.md", None)]


def test_doctests():
    import doctest
    import sys

    result = doctest.testmod(sys.modules[__name__])
    assert result.attempted == 2 and result.failed == 0
