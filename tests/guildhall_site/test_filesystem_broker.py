"""rundemo's broker (guildhall_site.filesystem_broker): a worker never reads half a message."""

from __future__ import annotations

import os
import subprocess
import sys
from queue import Empty

import pytest
from kombu import Connection

from guildhall_site.filesystem_broker import Transport


@pytest.fixture
def channel(tmp_path):
    folder = str(tmp_path)
    options = {"data_folder_in": folder, "data_folder_out": folder, "control_folder": folder}
    with Connection("filesystem://", transport=Transport, transport_options=options) as conn:
        yield conn.default_channel, tmp_path


def test_a_message_is_read_back_whole(channel):
    chan, folder = channel
    chan._put("celery", {"body": "x" * 10_000})

    assert [p.name.endswith(".celery.msg") for p in folder.iterdir()] == [True]
    assert chan._get("celery") == {"body": "x" * 10_000}


def test_a_message_being_written_is_not_taken(channel):
    chan, folder = channel
    (folder / "partial-1234").write_bytes(b"")  # as _put leaves it before its rename

    with pytest.raises(Empty):
        chan._get("celery")
    assert os.path.exists(folder / "partial-1234")


def test_kombus_own_transport_would_take_it(tmp_path):
    # Why it matters: kombu's file is named for its queue while still empty.
    from kombu.transport import filesystem

    folder = str(tmp_path)
    options = {"data_folder_in": folder, "data_folder_out": folder, "control_folder": folder}
    (tmp_path / "1_abc.celery.msg").write_bytes(b"")
    with Connection(
        "filesystem://", transport=filesystem.Transport, transport_options=options
    ) as c:
        with pytest.raises(ValueError):  # JSONDecodeError: the worker's "unrecoverable error"
            c.default_channel._get("celery")


def test_rundemos_settings_use_it():
    """The settings as rundemo reads them (no Redis, the filesystem broker), in a process of
    their own: this one's may have Redis."""
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "CELERY_BROKER_URL")}
    env["CELERY_BROKER_URL"] = "filesystem://"
    code = "from guildhall_site import settings; print(settings.CELERY_BROKER_TRANSPORT)"
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )

    assert out.stdout.strip() == "guildhall_site.filesystem_broker:Transport"
