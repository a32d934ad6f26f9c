"""Benchmark: the cost of one ask in a very long conversation against a short one, on the offline answerer.

A made-up conversation of --turns exchanges (question + complete answer, each answer with a real frozen source
snapshot and citations, tokens and terms counted as when saved, and a rolling summary folded as after each answer)
and one of --short exchanges are asked the same questions in turn, alternating, through the one ask path of every door
(chat.orchestration.ask_sync, to the stored answer and the summary refresh after it). Reported: the median seconds
per ask of each, their ratio (target: about 1, the per-ask work bounded by what the context plan can use), and the
database rows and queries one ask reads in each. No timed assertion anywhere: the figures are printed.

Run in the product's environment (SQLite in a temporary folder; the demo corpus is ingested there once):
    .venv/bin/python bench/bench_long_conversation.py [--turns 600] [--short 10] [--asks 5]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

QUESTIONS = ["What is the daily meal allowance?", "How often are laptops replaced?",
             "How many weeks of paid parental leave do employees get?", "How much paid time off do I earn?",
             "Can unused vacation days carry over?", "What is the mileage rate?", "Who approves travel?",
             "How do I book a hotel?", "What is the remote work policy?", "How many sick days do I get?"]


def setup(datadir: Path) -> None:
    os.environ.update({"DJANGO_SETTINGS_MODULE": "config.settings.dev", "DJANGO_DEBUG": "false",
                       "GROUNDED_VAR_DIR": str(datadir), "LLM_PROVIDER": "extractive",
                       "GROUNDED_LOG_LEVEL": "WARNING", "GROUNDED_ASK_RATE_LIMIT": "0", "GROUNDED_WARMUP": "false",
                       "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"})
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=600, help="exchanges of the long conversation")
    parser.add_argument("--short", type=int, default=10, help="exchanges of the short conversation")
    parser.add_argument("--asks", type=int, default=5, help="asks timed in each conversation")
    parser.add_argument("--profile", default="", help="write a cProfile of the long conversation's asks here")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="grounded-bench-long-"))
    try:
        setup(work)
        run(args)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run(args: argparse.Namespace) -> None:
    """Build the two conversations and time the asks (Django is set up)."""

    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from chat.orchestration import ask_sync
    from knowledge.services import domain_get_or_create, ingest_path
    from tests.chat.long_conversation import conversation_make

    domain = domain_get_or_create(slug="handbook", name="Tallgrass handbook")
    ingest_path(path=ROOT / "demo" / "corpus", domain=domain)
    user = get_user_model().objects.create_user("bench", password="pw")
    short = conversation_make(user=user, domain=domain, exchanges=args.short)
    long = conversation_make(user=user, domain=domain, exchanges=args.turns)
    ask_sync(user=user, text=QUESTIONS[0], conversation_id=short.pk)  # warm: model, index, caches
    times: dict[str, list[float]] = {"short": [], "long": []}
    queries: dict[str, int] = {}
    profiler = None
    if args.profile:
        import cProfile

        profiler = cProfile.Profile()
    for i in range(args.asks):
        for name, conversation in (("short", short), ("long", long)):
            question = QUESTIONS[(i + 1) % len(QUESTIONS)]
            if name == "long" and profiler is not None:
                profiler.enable()
            with CaptureQueriesContext(connection) as captured:
                start = time.perf_counter()
                answer, _ = ask_sync(user=user, text=question, conversation_id=conversation.pk)
                times[name].append(time.perf_counter() - start)
            if name == "long" and profiler is not None:
                profiler.disable()
            assert answer is not None and answer.status == "complete", answer
            queries[name] = len(captured)  # the main thread's; the ask's database worker runs on this thread
    if profiler is not None:
        profiler.dump_stats(args.profile)
    short_s, long_s = statistics.median(times["short"]), statistics.median(times["long"])
    print(f"one ask, median of {args.asks}: {args.short} exchanges {short_s:.3f} s, {args.turns} exchanges "
          f"{long_s:.3f} s, ratio {long_s / short_s:.2f}x")
    print(f"queries of the last ask: short {queries['short']}, long {queries['long']}")


if __name__ == "__main__":
    main()
