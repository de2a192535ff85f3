"""The server's one-line answers: JSON bodies in, JSON errors out."""

from __future__ import annotations

from typing import Any

from aiohttp import web


async def json_body(request: web.Request) -> dict[str, Any]:
    try:
        data = await request.json()
    except (ValueError, UnicodeDecodeError):
        raise web.HTTPBadRequest(reason="the body must be a JSON object") from None
    if not isinstance(data, dict):
        raise web.HTTPBadRequest(reason="the body must be a JSON object")
    return data


def json_error(status: int, message: str) -> web.Response:
    return web.json_response({"error": message}, status=status)
