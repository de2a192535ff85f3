"""The companion page: the table on a phone or laptop on the home network.

An aiohttp server on its own thread with its own asyncio loop. It never touches the
machine or the session: commands go in as events on the loop's queue (the same button
events the GPIO buttons make), and the table comes out as snapshots the loop publishes
while it draws (:mod:`controller.web.publish`). Nothing here is imported unless the
server is switched on (``[web] enabled``, ``spieltisch sim --web``).
"""
