"""The events process's gate (guildhall_site.asgi.AdmitFew): at most so many requests are
admitted at once, and a stream stops counting once its answer has started."""

from __future__ import annotations

import asyncio

from guildhall_site.asgi import AdmitFew


def test_a_burst_is_admitted_a_few_at_a_time_and_streams_hold_no_place():
    admitting = 0
    most = 0
    streaming = asyncio.Event()

    async def app(scope, receive, send):
        nonlocal admitting, most
        admitting += 1
        most = max(most, admitting)
        await asyncio.sleep(0.01)  # the database's part, in a thread of its own
        admitting -= 1
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await streaming.wait()  # a listener, waiting for events: holds no place
        await send({"type": "http.response.body", "body": b"", "more_body": False})

    async def scenario() -> list[str]:
        gate = AdmitFew(app, 3)
        started: list[str] = []

        async def send(message):
            started.append(message["type"])

        async def receive():
            return {"type": "http.disconnect"}

        tasks = [asyncio.create_task(gate({"type": "http"}, receive, send)) for _ in range(30)]
        while started.count("http.response.start") < 30:
            await asyncio.sleep(0.01)
        streaming.set()
        await asyncio.gather(*tasks)
        return started

    started = asyncio.run(scenario())

    assert most == 3  # never more than the gate lets in, though all 30 came at once
    assert started.count("http.response.body") == 30  # every stream ran, all at once


def test_a_request_that_fails_before_answering_gives_its_place_back():
    async def failing(scope, receive, send):
        raise RuntimeError("the view failed")

    async def scenario():
        gate = AdmitFew(failing, 1)
        for _ in range(3):  # with its place lost, the second would wait for ever
            try:
                await asyncio.wait_for(gate({"type": "http"}, None, None), 1)
            except RuntimeError:
                pass

    asyncio.run(scenario())
