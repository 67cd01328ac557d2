"""Serves an ASGI app with uvicorn and says so only once the port accepts connections.

uvicorn runs the app's lifespan startup (and logs "Application startup complete") before it binds
its socket, so a ready line printed before `uvicorn.run`, or that log line, can reach a test harness
while connections are still refused: under load the first request of a test then failed.
"""
import uvicorn


class _Announcing(uvicorn.Server):
    """A uvicorn server that prints its ready line right after its startup has bound the socket."""

    def __init__(self, config: uvicorn.Config, ready_line: str) -> None:
        super().__init__(config)
        self.ready_line = ready_line

    async def startup(self, sockets=None) -> None:
        await super().startup(sockets=sockets)
        # `started` is set only once every listener is bound (a failed bind exits instead).
        if self.started:
            print(self.ready_line, flush=True)


def serve(app, port: int, ready_line: str, log_level: str = "warning") -> None:
    """Runs `app` on 127.0.0.1:`port`; prints `ready_line` once uvicorn has bound its socket."""
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level=log_level, access_log=False)
    _Announcing(config, ready_line).run()
