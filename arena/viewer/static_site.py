"""``arena view RUN_DIR --export SITE_DIR``: every page of the viewer as static files.

The pages are the server's own (:func:`arena.viewer.pages.render`) with relative links, so the site opens
from disk (``file://``) or from any web server; only the live pages, which need the server, are left out.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from arena.errors import ConfigError
from arena.viewer.pages import render, site_paths
from arena.viewer.runs import Run
from arena.viewer.site import Site, static_dir


def export_site(run_dir: Path, site_dir: Path, *, on_page: Callable[[int, int], None] | None = None) -> int:
    """Write the site of ``run_dir`` into ``site_dir``; the number of pages written.

    ``on_page(done, total)`` is called after each page (for a progress bar).
    """
    site = Site(Run(run_dir), live=False)
    if site_dir.resolve() == run_dir.resolve() or run_dir.resolve() in site_dir.resolve().parents:
        raise ConfigError(f"the site folder {site_dir} must be outside the run folder {run_dir}")
    paths = list(site_paths(site.run))
    site_dir.mkdir(parents=True, exist_ok=True)
    shutil.copytree(static_dir(), site_dir / "static", dirs_exist_ok=True)
    for done, path in enumerate(paths, start=1):
        target = site_dir / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(render(site, path), encoding="utf-8")
        if on_page is not None:
            on_page(done, len(paths))
    return len(paths)
