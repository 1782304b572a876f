"""The site's settings as production reads them, for ``manage.py bench_pages`` only
(docs/performance.md): the same settings (all from the environment), plus

- the URLs of ``guildhall_site.bench_urls``: the site's own and the bare view of the
  benchmark, ``/bench/bare/``, which the site itself never serves;
- the bare view's template folder;
- STATIC_ROOT from ``BENCH_STATIC_ROOT``: the benchmark collects the static files in a
  temporary folder of its own, not in the project's.
"""

import copy
import os
from pathlib import Path

from guildhall_site.settings import *  # noqa: F403
from guildhall_site.settings import BASE_DIR, STATIC_ROOT, TEMPLATES

ROOT_URLCONF = "guildhall_site.bench_urls"

TEMPLATES = copy.deepcopy(TEMPLATES)
TEMPLATES[0]["DIRS"] = [*TEMPLATES[0]["DIRS"], BASE_DIR / "guildhall_site" / "bench_templates"]

STATIC_ROOT = Path(os.environ.get("BENCH_STATIC_ROOT") or STATIC_ROOT)
