"""Webhooks: a token's owner hears of their games' events by HTTPS POSTs (docs/api.md)."""
