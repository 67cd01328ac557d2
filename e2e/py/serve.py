"""Serves an ASGI app with uvicorn and says so only once the port accepts connections.

uvicorn runs the app's lifespan startup (and logs "Application startup complete") before it binds
its socket, so a ready line printed before `uvicorn.run`, or that log line, can reach a test harness
while connections are still refused: under load the first request of a test then failed.
"""
import asyncio

import uvicorn


def serve(app, port: int, ready_line: str, log_level: str = "warning") -> None:
    """Runs `app` on 127.0.0.1:`port`; prints `ready_line` once uvicorn has bound its socket."""
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level=log_level,
                                           access_log=False))

    async def main() -> None:
        serving = asyncio.create_task(server.serve())
        while not server.started and not serving.done():
            await asyncio.sleep(0.02)
        if server.started:
            print(ready_line, flush=True)
        await serving

    asyncio.run(main())
