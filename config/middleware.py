"""Middleware of the project."""

from __future__ import annotations

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from whitenoise.middleware import WhiteNoiseMiddleware


class StaticFilesMiddleware(WhiteNoiseMiddleware):
    """WhiteNoise's static file serving, async-capable.

    WhiteNoiseMiddleware is sync-only, so under ASGI Django runs every async view behind it through an adapter thread
    whose executor ends with the view's return; the tasks a streaming view leaves running (the API's server-sent
    answer) then cannot reach the database any more. This subclass keeps the chain async: a static path is looked up
    (in memory; the file's response is built in a worker thread) and anything else goes straight to the next handler.
    """

    sync_capable = True
    async_capable = True

    def __init__(self, get_response) -> None:
        super().__init__(get_response)
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request):
        if self.is_async:
            return self.__acall__(request)
        return super().__call__(request)

    async def __acall__(self, request):
        static_file = (await sync_to_async(self.find_file)(request.path_info) if self.autorefresh
                       else self.files.get(request.path_info))
        if static_file is not None:
            return await sync_to_async(self.serve, thread_sensitive=False)(static_file, request)
        return await self.get_response(request)
