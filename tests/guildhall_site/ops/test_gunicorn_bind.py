"""gunicorn listens on loopback unless told otherwise (issue 45: on 0.0.0.0 a client could
skip the proxy and forge X-Forwarded-For)."""

from __future__ import annotations

import importlib

import guildhall_site.ops.gunicorn as config


def _loaded(monkeypatch, **env):
    for name in ("PORT", "WEB_BIND"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return importlib.reload(config)


def test_it_binds_to_loopback_by_default(monkeypatch):
    assert _loaded(monkeypatch).bind == "127.0.0.1:8000"
    assert _loaded(monkeypatch, PORT="8123").bind == "127.0.0.1:8123"


def test_an_address_is_bound_only_when_named(monkeypatch):
    assert _loaded(monkeypatch, WEB_BIND="10.0.0.5:8000").bind == "10.0.0.5:8000"
    importlib.reload(config)
