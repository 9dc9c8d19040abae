"""HTTP requests on reused threads instead of a new thread each.

Django's ASGI handler runs each request's sync code on a thread of its own, started and
joined on the event loop; on a busy process each start waits for the interpreter's lock while
every socket of the process waits (docs/benchmarks.md, "Held for half an hour"). Here a
request borrows an idle single-thread executor (a new one only when none is idle) and gives it
back; ``HTTP_THREADS`` idle ones are kept, any more are let go without waiting for them.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import ThreadSensitiveContext
from asgiref.typing import ASGI3Application, ASGIReceiveCallable, ASGISendCallable, Scope


class ReusedRequestThreads:
    """ASGI middleware: run ``app``'s requests on reused threads, keeping ``idle`` of them."""

    def __init__(self, app: ASGI3Application, idle: int) -> None:
        self.app = app
        self.idle = idle
        self._free: list[ThreadPoolExecutor] = []
        self._made = 0

    def _borrow(self) -> ThreadPoolExecutor:
        if self._free:
            return self._free.pop()
        self._made += 1
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"http-{self._made}")

    def _give_back(self, executor: ThreadPoolExecutor) -> None:
        if len(self._free) < self.idle:
            self._free.append(executor)
        else:
            executor.shutdown(wait=False)

    async def __call__(
        self, scope: Scope, receive: ASGIReceiveCallable, send: ASGISendCallable
    ) -> None:
        executor = self._borrow()
        try:
            # Django's handler enters a context of its own inside this one: that one then
            # does nothing, and the request's sync code runs on this executor's thread.
            async with ThreadSensitiveContext(executor=executor):
                await self.app(scope, receive, send)
        finally:
            self._give_back(executor)
