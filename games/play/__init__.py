"""The actions that change games and invitations, one module per topic (zulip's actions):
each ``do_*`` checks, then changes its rows under a row lock, and queues what the change sets
off by name after the commit (``events``). Pages, the API and tasks call these; nothing here
knows of HTTP (``errors`` are the actions' own)."""
