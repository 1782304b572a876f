"""kombu's filesystem transport (the broker of ``rundemo``), with messages written whole.

kombu writes a message by creating its file and then writing into it; a worker listing the
folder in between moves the still-empty file away, reads nothing and dies on the JSON
("Unrecoverable error: JSONDecodeError", celery/kombu#1551), after which no task runs until
the demo is restarted. Here a message is written under a name the queues never read and
then renamed into place, which POSIX makes atomic: a worker sees a message whole or not at
all. Everything else is kombu's.
"""

from __future__ import annotations

import os
import uuid
from time import monotonic
from typing import Any

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps


class Channel(filesystem.Channel):
    # As kombu's filesystem channel, ``payload`` where its base names it ``message`` (kombu's
    # stubs ignore the same there).
    def _put(  # type: ignore[override]
        self, queue: str, payload: dict[str, Any], **kwargs: Any
    ) -> None:
        """Put ``payload`` onto ``queue``: written under a temporary name, then renamed."""
        # kombu's own name: the workers take messages in the order of their names.
        name = f"{int(round(monotonic() * 1000))}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        # No ".<queue>.msg" after the first dot: no queue ever reads it.
        partial = os.path.join(self.data_folder_out, f"partial-{uuid.uuid4()}")
        try:
            with open(partial, "wb") as f:
                f.write(str_to_bytes(dumps(payload)))
            os.replace(partial, final)
        except OSError as exc:
            raise ChannelError(f"Cannot add file {final!r} to directory") from exc


class Transport(filesystem.Transport):
    Channel = Channel
