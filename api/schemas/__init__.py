"""The HTTP API's request and response types: pydantic models that django-ninja validates requests and responses
with and generates the OpenAPI document at /api/v1/schema from. (Plain pydantic models rather than ninja's Schema,
which reads its input through attribute access and so would drop the keys an object has beyond its declared ones.)

Requests are validated by these types (an invalid one is a 400 ``invalid_request``). Two rules are documented here
but enforced by the services with codes of their own, so the types only describe them: the question's length and
blankness (chat.validation.validate_question: 413 ``message_too_long``, 400 ``empty_message``; its limits come from the
settings in force when the document is generated) and whether a domain exists and may be read (404
``unknown_domain``). Responses are validated on the way out; objects keep any key they have beyond the declared ones
(``extra="allow"``), so a payload is never cut short by its type.

One module per resource, imported from where it is defined (this package re-exports nothing):

- ``common``: the types every resource shares: ids, text without unpaired surrogates, numbers, message statuses,
  the open object and the error body.
- ``answers``: asking (the request of POST /api/v1/ask) and the answer with its citations, sources, notes, dropped
  passages, support, budget and usage.
- ``conversations``: conversation lists (paging), a conversation with its stored turns, the conversation id in URLs.
- ``domains``: the domains one may read, and uploads into a domain (ingestion jobs and their files).
"""
