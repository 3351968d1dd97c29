"""The instant solver in a web browser: a static page, a local server, a static site.

The page (``static/``: HTML, plain JavaScript modules and CSS, no build step, no
framework, nothing fetched from the network) replays strategy trees in the
browser: the computer guesses the person's secret from a tree, offering only the
answers the tree allows; it lists the codes still possible, keeps the path with
undo, browses the tree, charts the distribution of game lengths, and hides a
secret of its own for the person to find (the challenge). It reads a tree the
way ``optimal-mm verify`` does, with the same checks and messages
(``docs/FORMAT.md``), scoring by the same rules as :mod:`optimal_mm.game`.

The page needs only files: itself, the trees, and ``trees/index.json``, the
catalogue of the trees. :mod:`optimal_mm.web.site` gathers them, from the trees
shipped with the package (``optimal_mm/data/``) and, in a source checkout, the
proven and heuristic trees of ``results/trees/``; it writes them as a static site
(``optimal-mm site -o DIR``), and :mod:`optimal_mm.web.server` serves them on the
loopback interface (``optimal-mm serve``).
"""

from .server import make_server, page_url
from .site import TreeEntry, site_files, tree_catalogue, write_site

__all__ = ["TreeEntry", "make_server", "page_url", "site_files", "tree_catalogue", "write_site"]
