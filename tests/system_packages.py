"""Debian packages the tests need beyond Python (chromium for the browser tests, gettext for
the catalogue's check): installed with apt-get where they are missing and we are root, as on a
fresh CI machine, which has only Python."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path


def install(package: str, path: str) -> str | None:
    """Make sure ``path`` exists, installing ``package`` if it does not. Why it could not be
    installed, or None once it is there."""
    if Path(path).exists():
        return None
    if not hasattr(os, "geteuid") or os.geteuid() != 0 or not shutil.which("apt-get"):
        return f"{path} is missing and we cannot install {package} (not root, or no apt-get)"
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    # Another apt-get (a second test run on the machine) may hold the lock: wait for it.
    wait = ["-o", "DPkg::Lock::Timeout=600"]
    for command in (["apt-get", *wait, "update"], ["apt-get", *wait, "install", "-y", package]):
        done = subprocess.run(command, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            return f"{' '.join(command)} failed:\n{done.stderr[-2000:]}"
    return None if Path(path).exists() else f"apt-get installed no {path}"
