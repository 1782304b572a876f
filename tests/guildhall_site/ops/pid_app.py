"""A WSGI application that answers its process's id: which gunicorn worker served."""

import os


def application(environ, start_response):
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [str(os.getpid()).encode()]
