"""Uploads through a real Daphne server (tests.live_daphne): what a client sending a
malformed or empty multipart body gets back over the wire."""

from __future__ import annotations

import http.client
import json

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission

from api.services import token_create
from knowledge.services import domain_get_or_create
from tests.live_daphne import live_daphne

pytestmark = pytest.mark.django_db(transaction=True)

UPLOAD = "/api/v1/domains/handbook/documents"
NO_FILES = {"code": "invalid_request", "message": "Send one or more files as multipart/form-data fields named 'files'."}


@pytest.fixture
def daphne_port(transactional_db):
    with live_daphne() as port:
        yield port


@pytest.fixture
def staff_token(transactional_db):
    domain_get_or_create(slug="handbook", name="Tallgrass handbook")
    staff = get_user_model().objects.create_user("staff", password="pw", is_staff=True)
    staff.user_permissions.add(Permission.objects.get(codename="add_document"))
    return token_create(user=staff, name="uploads")[1]


def post(port: int, token: str, content_type: str, body: bytes) -> tuple[int, str, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("POST", UPLOAD, body=body, headers={"Authorization": f"Bearer {token}",
                                                               "Content-Type": content_type})
        response = connection.getresponse()
        return response.status, response.getheader("Content-Type") or "", response.read()
    finally:
        connection.close()


@pytest.mark.parametrize("body", [b"--xyz--\r\n", b"--xyz--", b"not a multipart body"],
                         ids=["closing-boundary-only", "closing-boundary-no-newline", "garbage"])
def test_an_empty_multipart_body_under_daphne_gets_the_json_error_not_a_bare_400(daphne_port, staff_token, body):
    """A client posting an empty multipart form (only the closing boundary, as a form with no field is sent) or a
    body that is not multipart at all got Twisted's bare "400 Bad Request" with no body and no JSON: the upload
    script could not say what was wrong. It gets the API's error saying to send files."""
    status, content_type, raw = post(daphne_port, staff_token, "multipart/form-data; boundary=xyz", body)
    assert (status, content_type) == (400, "application/json"), raw
    assert json.loads(raw) == {"error": NO_FILES}


def test_a_multipart_body_without_a_boundary_is_a_clear_error_not_a_server_failure(daphne_port, staff_token):
    """'Content-Type: multipart/form-data' with no boundary parameter was a 500 "The request failed on the server"
    (Django's multipart parser raised); the client is told its body could not be read and what to send."""
    for content_type in ("multipart/form-data", "multipart/form-data; boundary="):
        status, media, raw = post(daphne_port, staff_token, content_type, b"")
        assert (status, media) == (400, "application/json"), raw
        error = json.loads(raw)["error"]
        assert error["code"] == "invalid_request" and "boundary" in error["message"]
        assert "multipart/form-data fields named 'files'" in error["message"]
