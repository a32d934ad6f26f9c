"""The answer the multi-worker test's workers stream (kept apart from asgi_scripted, which must only be imported by the
worker processes: importing it swaps the provider of the importing process)."""

PIECES = [f"Part {i} of a slow scripted answer. " for i in range(16)]
