"""Every relative link of the README and the docs reaches a file that exists, and a section of it
that exists: pages move and sections get renamed (docs/speed.md's sections went to
docs/speed-internals.md and docs/speed-history.md), and a link that lands on nothing is found
here rather than by a reader."""
import functools
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", ROOT / "benchmarks" / "README.md", ROOT / "examples" / "README.md",
         *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation but '-' and '_' dropped, spaces as '-'.

    >>> slug("The Perl-order sums: arithmetic (the tenth round)")
    'the-perl-order-sums-arithmetic-the-tenth-round'
    """
    text = re.sub(r"[`*]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


@functools.lru_cache(maxsize=None)   # a page is the target of many links
def anchors(page: Path) -> frozenset:
    seen: dict = {}
    out = set()
    in_code = False
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_code = not in_code
        m = None if in_code else re.match(r"#{1,6} (.+)", line)
        if m:
            base = slug(m.group(1))
            n = seen.get(base, 0)
            seen[base] = n + 1
            out.add(base if n == 0 else "%s-%d" % (base, n))
    return frozenset(out)


def test_the_pages_are_there():
    assert all(p.exists() for p in PAGES) and len(PAGES) > 10


def test_every_relative_link_reaches_its_file_and_section():
    broken = []
    for page in PAGES:
        text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
        for target in LINK.findall(text):
            if re.match(r"[a-z]+:", target):   # http:, https:, mailto:
                continue
            path, _, anchor = target.partition("#")
            dest = (page.parent / path).resolve() if path else page
            if not dest.exists():
                broken.append("%s: %s (no such file)" % (page.relative_to(ROOT), target))
            elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                broken.append("%s: %s (no such section)" % (page.relative_to(ROOT), target))
    assert not broken, "\n".join(broken)
