"""Goofspiel, a proof game for the platform's protocol: simultaneous hidden choices.

It lives with the tests and is registered only when they import ``tests.goofspiel.game``.
"""
