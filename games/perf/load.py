"""HTTP load generators for ``manage.py bench_pages``: wrk when it is installed, else one in
Python (a thread per connection, each with its own ``http.client`` connection, kept alive when
the server allows it). Both give requests per second and the 50th and 99th percentiles of the
latency. No Django here.

A run keeps ``connections`` requests in flight for ``seconds``: every connection sends its next
request as soon as the answer to the last one has arrived (a closed loop, as wrk does).
"""

from __future__ import annotations

import http.client
import math
import re
import shutil
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Target:
    """One kind of request: a GET of ``path`` (or another method, with a body) with these
    headers, answered with ``expect``."""

    name: str
    path: str
    headers: dict[str, str] = field(default_factory=dict)
    expect: int = 200
    method: str = "GET"
    body: bytes | None = None


@dataclass
class Result:
    requests: int
    seconds: float
    p50_ms: float
    p99_ms: float
    # Answers other than the expected status (wrk: other than 2xx/3xx), and socket errors.
    errors: int = 0
    statuses: dict[int, int] = field(default_factory=dict)

    @property
    def rps(self) -> float:
        return self.requests / self.seconds if self.seconds > 0 else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "requests": self.requests,
            "seconds": round(self.seconds, 3),
            "rps": round(self.rps, 1),
            "p50_ms": round(self.p50_ms, 2),
            "p99_ms": round(self.p99_ms, 2),
            "errors": self.errors,
        }


def percentile(values: list[float], pc: float) -> float:
    """The nearest-rank percentile of ``values`` (0 for none)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(pc / 100 * len(ordered)))
    return ordered[rank - 1]


def summarise(
    latencies: list[float], seconds: float, statuses: Mapping[int, int], expect: int
) -> Result:
    """A run's result from its latencies (seconds) and the statuses answered."""
    return Result(
        requests=len(latencies),
        seconds=seconds,
        p50_ms=percentile(latencies, 50) * 1000,
        p99_ms=percentile(latencies, 99) * 1000,
        errors=sum(n for status, n in statuses.items() if status != expect),
        statuses=dict(statuses),
    )


# A request and its answer ----------------------------------------------------------------------


def request(
    conn: http.client.HTTPConnection, target: Target, extra_headers: dict[str, Any] | None = None
) -> tuple[int, bytes, float]:
    """Send ``target`` on ``conn``; returns the status, the body and the seconds it took.
    A connection the server closed (gunicorn's sync workers close each one) is opened
    again by the next request."""
    headers = {**target.headers, **(extra_headers or {})}
    t = time.perf_counter()
    conn.request(target.method, target.path, body=target.body, headers=headers)
    response = conn.getresponse()
    body = response.read()
    elapsed = time.perf_counter() - t
    if response.will_close:
        conn.close()
    return response.status, body, elapsed


# The Python load generator ---------------------------------------------------------------------


def python_load(
    host: str, port: int, target: Target, *, connections: int, seconds: float
) -> Result:
    """``connections`` threads, each sending ``target`` in a loop for ``seconds``."""
    barrier = threading.Barrier(connections + 1)
    latencies: list[list[float]] = [[] for _ in range(connections)]
    statuses: list[Counter[int]] = [Counter() for _ in range(connections)]
    ends = [0.0] * connections
    start = 0.0

    def worker(i: int) -> None:
        conn = http.client.HTTPConnection(host, port, timeout=60)
        barrier.wait()
        deadline = start + seconds
        mine, counts = latencies[i], statuses[i]
        try:
            while time.perf_counter() < deadline:
                try:
                    status, _body, elapsed = request(conn, target)
                except (OSError, http.client.HTTPException):
                    counts[0] += 1  # no answer: counted as an error, not as a latency
                    conn.close()
                    continue
                mine.append(elapsed)
                counts[status] += 1
        finally:
            conn.close()
            ends[i] = time.perf_counter()

    threads = [threading.Thread(target=worker, args=(i,), daemon=True) for i in range(connections)]
    for thread in threads:
        thread.start()
    start = time.perf_counter()
    barrier.wait()
    for thread in threads:
        thread.join()
    elapsed = max(ends) - start
    return summarise(
        [x for xs in latencies for x in xs], elapsed, sum(statuses, Counter()), target.expect
    )


# wrk -------------------------------------------------------------------------------------------


def wrk_path() -> str | None:
    return shutil.which("wrk")


def wrk_version(path: str) -> str:
    out = subprocess.run([path, "--version"], capture_output=True, text=True, check=False)
    first = (out.stdout or out.stderr).strip().splitlines()
    return first[0].split(" Copyright")[0].strip() if first else "wrk"


def wrk_load(
    host: str,
    port: int,
    target: Target,
    *,
    connections: int,
    seconds: float,
    threads: int = 2,
    wrk: str = "wrk",
) -> Result:
    """wrk against ``target`` (a GET), its latency distribution asked for."""
    if target.method != "GET":
        raise ValueError("the wrk runs are GETs")
    command = [
        wrk,
        f"--threads={max(1, min(threads, connections))}",
        f"--connections={connections}",
        f"--duration={max(1, round(seconds))}s",
        "--timeout=30s",
        "--latency",
    ]
    for name, value in target.headers.items():
        command += ["--header", f"{name}: {value}"]
    command.append(f"http://{host}:{port}{target.path}")
    out = subprocess.run(command, capture_output=True, text=True, check=True, timeout=seconds + 60)
    return parse_wrk(out.stdout)


_UNITS = {"us": 1e-3, "ms": 1.0, "s": 1e3, "m": 60e3, "h": 3600e3}


def _ms(value: str) -> float:
    match = re.fullmatch(r"([\d.]+)(us|ms|s|m|h)", value)
    if not match:
        raise ValueError(f"not a wrk duration: {value!r}")
    return float(match[1]) * _UNITS[match[2]]


def parse_wrk(text: str) -> Result:
    """The figures of ``wrk --latency``'s report."""
    percentiles = dict(re.findall(r"^\s+(\d+)%\s+(\S+)\s*$", text, re.M))
    done = re.search(r"^\s*(\d+) requests in ([\d.]+)(us|ms|s|m|h),", text, re.M)
    if not done or "50" not in percentiles or "99" not in percentiles:
        raise ValueError(f"wrk's report could not be read:\n{text}")
    errors = 0
    socket = re.search(
        r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text
    )
    if socket:
        errors += sum(int(n) for n in socket.groups())
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    if non_2xx:
        errors += int(non_2xx[1])
    return Result(
        requests=int(done[1]),
        seconds=_ms(done[2] + done[3]) / 1000,
        p50_ms=_ms(percentiles["50"]),
        p99_ms=_ms(percentiles["99"]),
        errors=errors,
    )
