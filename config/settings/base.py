"""Settings shared by every environment. Every value comes from the environment with a working default
(cookiecutter-django habit); with no environment at all this is the embedded default: SQLite, in-memory channel
layer, bundled models, offline extractive answerer."""

from __future__ import annotations

import os
from pathlib import Path

import environ

BASE_DIR = Path(__file__).resolve().parent.parent.parent
env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env") if (BASE_DIR / ".env").exists() else None

#: Prefixes of the variables read below.
_OURS = ("GROUNDED_", "DJANGO_", "DATABASE_", "REDIS_", "LLM_", "ANTHROPIC_", "OPENAI_")
# A variable of ours set to nothing ("GROUNDED_VAR_DIR=" in a .env file, a compose file's "${GROUNDED_VAR_DIR:-}")
# means "use the default", as if it were unset: read as given, "" made the current directory the data directory (a
# fresh database there: "no such table" on the first page) and stopped a number setting with a ValueError.
for _name in [n for n, v in os.environ.items() if n.startswith(_OURS) and not v.strip()]:
    del os.environ[_name]

VAR_DIR = Path(env("GROUNDED_VAR_DIR", default=str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)
#: Where domains' retrieval indexes live (memory-mapped by every worker; see knowledge.selectors.domain_index).
INDEX_DIR = Path(env("GROUNDED_INDEX_DIR", default=str(VAR_DIR / "index")))
#: Vectors at or above which a domain's dense search uses the HNSW graph instead of exact search.
#: Vectors from which a domain index also gets an HNSW graph for the dense side; 0 (the default): never. Off until
#: its recall@10 on real embeddings is measured at 0.95 or more (docs/benchmarks.md): exact search is always right.
RETRIEVAL_ANN_THRESHOLD = env.int("GROUNDED_ANN_THRESHOLD", default=0)

SECRET_KEY = env("DJANGO_SECRET_KEY", default="dev-only-insecure-key-change-me")
DEBUG = env.bool("DJANGO_DEBUG", default=False)
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost"])
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])
CSRF_FAILURE_VIEW = "chat.views.csrf_failure"  # JSON for the page's JSON endpoints, Django's page elsewhere

INSTALLED_APPS = [
    # servestatic first: its runserver wraps Daphne's without Django's static handler, so development serves static
    # files through the same middleware as production (and its system checks run)
    "servestatic",
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "knowledge",
    "chat",
    "api",
    "evaluation",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # static files (servestatic: WhiteNoise's async fork), served on the async path under ASGI
    "servestatic.middleware.ServeStaticMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}")}
# Connections are kept (and checked before reuse) instead of opened and closed around every database call: the
# chat's database work runs on one worker thread (channels' database_sync_to_async), which then holds one connection.
DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("DATABASE_CONN_MAX_AGE", default=60))
DATABASES["default"].setdefault("CONN_HEALTH_CHECKS", True)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded default serves a team too: write-ahead logging lets readers go on while one writer commits, and
    # with synchronous=NORMAL a commit is not an fsync (durable at the next checkpoint; a power cut may lose the
    # last commits, never corrupt the file); IMMEDIATE transactions take the write lock when they begin, so two
    # writers queue on the timeout instead of failing with "database is locked" (Django's SQLite notes, 5.1+).
    DATABASES["default"].setdefault("OPTIONS", {}).update({
        "timeout": 20, "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"})

#: REDIS_URL selects the Redis channel layer, so several ASGI worker processes share groups (a socket that reconnects
#: to another worker can follow an answer still generating elsewhere); without it, the in-memory layer of one process.
REDIS_URL = env("REDIS_URL", default="")
CHANNEL_LAYERS = ({"default": {"BACKEND": "channels_redis.core.RedisChannelLayer",
                               "CONFIG": {"hosts": [REDIS_URL]}}}
                  if REDIS_URL else {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}})
#: The cache (the text so far of answers being generated) is shared by all workers through Redis when
#: REDIS_URL is set (DJANGO_CACHE_URL overrides); otherwise it is the process's memory.
CACHES = {"default": env.cache("DJANGO_CACHE_URL", default=REDIS_URL or "locmemcache://")}
#: Background ingestion (admin uploads): with REDIS_URL, jobs go to an RQ queue through Django's tasks framework
#: (django-tasks with the django-tasks-rq backend) and run in worker processes started with
#: `manage.py rqworker --job-class django_tasks_rq.Job default`; without it, in a thread of the process that
#: received the upload. Uploaded files wait in UPLOAD_DIR, which the web and worker processes must share.
INGEST_QUEUE = bool(REDIS_URL)
UPLOAD_DIR = VAR_DIR / "uploads"
#: Original files of ingested document versions, one per distinct content (knowledge.originals); shared by the web
#: and worker processes like UPLOAD_DIR.
ORIGINALS_DIR = VAR_DIR / "originals"
#: Largest file ingestion accepts (an upload or a file of `manage.py ingest`), in megabytes (decimals allowed).
MAX_UPLOAD_MB = env.float("GROUNDED_MAX_UPLOAD_MB", default=50.0)
MAX_UPLOAD_BYTES = int(MAX_UPLOAD_MB * 1024 * 1024)
#: OCR of scanned PDF pages (pages without a text layer) with Tesseract, and its languages ("eng", "eng+deu": each
#: needs Debian's tesseract-ocr-<lang>).
OCR_ENABLED = env.bool("GROUNDED_OCR", default=True)
OCR_LANGUAGES = env("GROUNDED_OCR_LANGUAGES", default="eng")
if INGEST_QUEUE:
    INSTALLED_APPS += ["django_rq", "django_tasks", "django_tasks_rq"]
    RQ_QUEUES = {"default": {"URL": REDIS_URL, "DEFAULT_TIMEOUT": 3600}}
    TASKS = {"default": {"BACKEND": "django_tasks_rq.RQBackend", "QUEUES": ["default"]}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "chat:index"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "staticfiles"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # servestatic looks here too (empty until collectstatic)
# servestatic serves static files from the app itself (no separate web server needed); the embedded default finds them
# in place, production serves the compressed, hashed copies `collectstatic` made (config/settings/production.py).
SERVESTATIC_USE_FINDERS = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {
        "grounded": {"handlers": ["console"], "level": env("GROUNDED_LOG_LEVEL", default="INFO")},
    },
}

# --- Grounded chat ---------------------------------------------------------------------------------------------
#: Answer provider: "anthropic", "openai" (OpenAI-compatible server) or "extractive" (the offline default; Claude is
#: the default when ANTHROPIC_API_KEY is set).
ANTHROPIC_API_KEY = env("ANTHROPIC_API_KEY", default="")
ANTHROPIC_MODEL = env("ANTHROPIC_MODEL", default="claude-sonnet-5")
ANTHROPIC_CITATION_MODE = env("ANTHROPIC_CITATION_MODE", default="text")
OPENAI_BASE_URL = env("OPENAI_BASE_URL", default="http://127.0.0.1:11434/v1")
OPENAI_API_KEY = env("OPENAI_API_KEY", default="")
OPENAI_MODEL = env("OPENAI_MODEL", default="llama3.1")
LLM_PROVIDER = env("LLM_PROVIDER", default="anthropic" if ANTHROPIC_API_KEY else "extractive")
#: With a model provider, these use its non-streamed completions (each falls back to its offline form when off or
#: when the model call fails): rolling summaries, follow-up rewrite for retrieval, the sufficiency check before the
#: answer call, the contradiction judge on aligned sentence pairs the rules left unflagged.
LLM_SUMMARIZER = env.bool("LLM_SUMMARIZER", default=True)
LLM_FOLLOWUP_REWRITE = env.bool("LLM_FOLLOWUP_REWRITE", default=True)
LLM_SUFFICIENCY_CHECK = env.bool("LLM_SUFFICIENCY_CHECK", default=True)
LLM_CONFLICT_JUDGE = env.bool("LLM_CONFLICT_JUDGE", default=True)
#: Longest accepted user message (characters); longer ones get a typed error naming the limit.
MAX_MESSAGE_CHARS = env.int("GROUNDED_MAX_MESSAGE_CHARS", default=4000)
#: Longest accepted user message in tokens (cl100k): some scripts take several tokens per character.
MAX_MESSAGE_TOKENS = env.int("GROUNDED_MAX_MESSAGE_TOKENS", default=2000)
#: Largest websocket message the server reads, in bytes (Daphne's limit, set by config.protocol_server for `runserver`
#: and the `daphne` command alike); 0, the default: room for an ask with a question at MAX_MESSAGE_CHARS
#: (chat.validation.request_limit: 64 KiB at 4,000 characters). A larger message closes the socket with code 1009
#: ("message too big") and a reason, never silently; the chat page refuses to send one.
WEBSOCKET_MAX_MESSAGE_BYTES = env.int("GROUNDED_WEBSOCKET_MAX_BYTES", default=0)
#: At most this many asks per user in any ASK_RATE_WINDOW seconds, over the websocket and the HTTP API together;
#: 0 turns the limit off.
ASK_RATE_LIMIT = env.int("GROUNDED_ASK_RATE_LIMIT", default=20)
ASK_RATE_WINDOW = env.int("GROUNDED_ASK_RATE_WINDOW", default=60)
#: Where the ask limit's moving windows live, as a `limits` storage URL: Redis when REDIS_URL is set (one window for
#: every worker process), otherwise the process's memory (each process counts on its own).
ASK_RATE_STORAGE_URL = env("GROUNDED_ASK_RATE_STORAGE_URL", default=REDIS_URL or "memory://")
#: Prefix of the limit's keys in a shared storage (Redis).
ASK_RATE_KEY_PREFIX = "grounded-ratelimit"
#: Where the run command's demo corpus lives.
DEMO_CORPUS_DIR = BASE_DIR / "demo" / "corpus"

# --- serving many asks at once (chat.runtime) --------------------------------------------------------------------
#: Threads of the CPU pool (embedding, search, planning, notes); default: the machine's cores.
CPU_WORKERS = env.int("GROUNDED_CPU_WORKERS", default=0) or (os.cpu_count() or 2)
#: Threads the native code of one CPU-pool task may use (torch's intra-op pool for embeddings, numpy's BLAS): 1, since
#: the pool already runs CPU_WORKERS tasks side by side; more threads per task oversubscribe the cores (measured on the
#: shared 2-core machine at load average 10: one question's embedding 1.4 s with torch's default 2 threads, 0.15 s
#: with 1; a batch of 32, 5.2 s vs 1.7 s).
COMPUTE_THREADS = env.int("GROUNDED_COMPUTE_THREADS", default=1)
#: Asks planned at the same time per worker; more wait in order and get a `queued` frame with their position.
ASK_CONCURRENCY = env.int("GROUNDED_ASK_CONCURRENCY", default=32)
#: While other asks wait for their first words (planned, or queued for planning), an answer already streaming sends
#: a delta at most this often (seconds), the provider's pieces arriving meanwhile joined (grounding.coalescing); 0:
#: every piece as soon as it can. `bench/load_ws.py --users 100`, three runs alternated on otherwise equal code: first
#: words p95 1.36-1.57 s at 0.1 against 1.72-1.89 s without (docs/benchmarks.md, the s25 round).
STREAM_PACE_SECONDS = env.float("GROUNDED_STREAM_PACE_SECONDS", default=0.1)
#: Query embeddings of asks arriving while an encode runs share the next encode call (at most EMBED_BATCH texts); a
#: question arriving while none runs is encoded at once, after waiting this many seconds for company (default 0).
EMBED_BATCH_WAIT = env.float("GROUNDED_EMBED_BATCH_WAIT", default=0.0)
EMBED_BATCH = env.int("GROUNDED_EMBED_BATCH", default=32)
#: Load the embedding model, open every domain's index (building a missing one) when a server worker starts.
WARMUP = env.bool("GROUNDED_WARMUP", default=True)
