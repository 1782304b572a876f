"""What the benchmark commands share: progress notes that keep out of ``--json``'s way, and
the result printed as JSON or as the command's own report."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand


class BenchCommand(BaseCommand):
    as_json = False

    def note(self, text: str) -> None:
        """Progress: on stderr under --json, so that stdout is the JSON alone."""
        (self.stderr if self.as_json else self.stdout).write(text)

    def output(self, result: dict[str, Any]) -> None:
        if self.as_json:
            self.stdout.write(json.dumps(result, indent=2))
        else:
            self.report(result)

    def report(self, result: dict[str, Any]) -> None:
        raise NotImplementedError
