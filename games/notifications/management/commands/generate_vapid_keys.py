"""Print a new VAPID key pair for Web Push, as lines for an env file.

    python manage.py generate_vapid_keys >> .env

The public key is an uncompressed P-256 point and the private key its 32-byte secret, both
base64url without padding: the forms browsers (``applicationServerKey``) and pywebpush take.
Keep the private key secret; replacing the pair ends every device's subscription.
"""

import base64
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.management.base import BaseCommand


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def new_key_pair() -> tuple[str, str]:
    """(public, private), base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    private = key.private_numbers().private_value.to_bytes(32, "big")
    return b64url(public), b64url(private)


class Command(BaseCommand):
    help = "Print a new VAPID key pair for Web Push as VAPID_PUBLIC_KEY=... VAPID_PRIVATE_KEY=..."

    def handle(self, *args: Any, **options: Any) -> None:
        public, private = new_key_pair()
        self.stdout.write(f"VAPID_PUBLIC_KEY={public}")
        self.stdout.write(f"VAPID_PRIVATE_KEY={private}")
