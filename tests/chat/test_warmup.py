"""A server worker is ready before the first question (issue 20 point 5): the model is loaded and every domain's
index is built (when missing) and mapped when the ASGI application starts."""

from __future__ import annotations

import shutil

import pytest

pytestmark = pytest.mark.django_db


def test_warm_loads_the_model_and_maps_every_domains_index(demo_domain, embedder):
    from chat.warmup import warm
    from grounding.embeddings import default_embedder
    from knowledge import selectors
    from knowledge.indexing import index_path

    token = demo_domain.__class__.objects.get(pk=demo_domain.pk).index_token
    shutil.rmtree(index_path(domain=demo_domain, status="superseded", token=token))  # a missing one gets built
    selectors._cache.clear()
    report = warm()
    assert default_embedder()._model is not None
    assert report["domains"] >= 1 and report["built"] >= 1
    assert (demo_domain.pk, "current") in selectors._cache and (demo_domain.pk, "superseded") in selectors._cache
    assert index_path(domain=demo_domain, status="superseded", token=token).is_dir()


def test_the_asgi_application_warms_up_when_the_setting_asks(monkeypatch):
    import importlib

    import chat.warmup
    import config.asgi

    calls = []
    monkeypatch.setattr(chat.warmup, "warm", lambda: calls.append(1))
    from django.test import override_settings

    with override_settings(WARMUP=True):
        importlib.reload(config.asgi)
    with override_settings(WARMUP=False):
        importlib.reload(config.asgi)
    assert calls == [1]
