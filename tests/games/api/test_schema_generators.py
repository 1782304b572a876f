"""Both generators read the served schema with 0 warnings (issue 48): openapi-python-client
(a dev dependency) and openapi-typescript (from the npm registry, by npx), and a small
TypeScript client on openapi-typescript's types passes `tsc --strict`.

The npm tools are pinned; they skip only where node's npx is missing, and never under CI."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.games.api_validation import openapi

OPENAPI_TYPESCRIPT = "openapi-typescript@7.13.0"
TYPESCRIPT = "typescript@5"

# A client an app author would write on the generated types: every line type-checks only
# if the schema says what the API does (and `@ts-expect-error` fails if a type were `any`).
CLIENT_TS = """\
import type { components, paths } from "./schema";

type Action = components["schemas"]["Action"];
type Game = components["schemas"]["Game"];
type Moves =
  paths["/api/v1/games/{game_id}/moves/"]["get"]["responses"][200]["content"]["application/json"];
type Fault = paths["/api/v1/games/"]["get"]["responses"][500]["content"]["application/json"];

export const guildhallPlace: Action = { kind: "place", card: 64 };
export const renaissancePlace: Action = { kind: "place", level: 2, pos: 1 };
export const undo: Action = { kind: "undo" };
// @ts-expect-error: no game has this kind
export const unknown: Action = { kind: "fly" };

export function versionOf(game: Game): number {
  return game.version;
}

export function versions(page: Moves): number[] {
  return page.results.map((move) => move.version);
}

export function isOurs(answer: Fault): boolean {
  return answer.code === "server_error";
}
"""


def npx() -> str:
    found = shutil.which("npx")
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail("npx (node) is needed under CI")
        pytest.skip("no npx (node) here")
    return found


def run(command: list, where: Path) -> subprocess.CompletedProcess:
    done = subprocess.run(command, cwd=where, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


@pytest.fixture
def schema_file(tmp_path) -> Path:
    path = tmp_path / "schema.json"
    path.write_text(json.dumps(openapi()))
    return path


def test_openapi_python_client_warns_of_nothing(schema_file, tmp_path):
    config = tmp_path / "config.yaml"
    config.write_text("post_hooks: []\n")
    command = Path(sys.executable).parent / "openapi-python-client"

    done = run(
        [command, "generate", "--path", schema_file, "--config", config, "--meta", "none"]
        + ["--output-path", tmp_path / "client"],
        tmp_path,
    )

    output = done.stdout + done.stderr
    assert "Warning" not in output and "Unable to" not in output, output


def test_openapi_typescript_warns_of_nothing_and_tsc_strict_passes(schema_file, tmp_path):
    where = npx()

    done = run([where, "-y", OPENAPI_TYPESCRIPT, schema_file, "-o", "schema.ts"], tmp_path)

    # Its banner (✨) and its done line (🚀) and nothing else: a warning is a ⚠ line.
    lines = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    assert all(line.lstrip().startswith(("✨", "🚀")) for line in lines), lines
    (tmp_path / "client.ts").write_text(CLIENT_TS)
    checked = subprocess.run(
        [where, "-y", "-p", TYPESCRIPT, "tsc", "--strict", "--noEmit", "--target", "es2020"]
        + ["--module", "es2020", "--moduleResolution", "node", "client.ts"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
