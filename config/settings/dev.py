"""Local development/demo settings: the embedded default with DEBUG on unless DJANGO_DEBUG says otherwise."""

from .base import *  # noqa: F401,F403
from .base import env

DEBUG = env.bool("DJANGO_DEBUG", default=True)
