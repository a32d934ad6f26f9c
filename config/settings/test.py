"""Test settings: file-backed SQLite test database (the live-server browser tests need one), fast hashing."""

from .base import *  # noqa: F401,F403
from .base import DATABASES, VAR_DIR

DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test-db.sqlite3")}
ALLOWED_HOSTS = ["localhost", "127.0.0.1", "testserver"]
#: The ask limit is off in tests; tests of the limit turn it on with override_settings.
ASK_RATE_LIMIT = 0
