"""Benchmark: is ingesting a file written as one single line linear in its length? (s6 tester: a 2.5 MB single-line
Markdown file took over 15 minutes.)

Single-line Markdown files of --size characters and of --factor times that (distinct sentences, so no cache helps)
are read and chunked as ingestion does (grounding.extract.extract_document, grounding.chunking.chunk_blocks with the
bundled model's input limit), and the chunks' index text and sentences (claims and answer units, as
knowledge.sentences stores them) are prepared; the model's encoding of the vectors is left out: it is linear in the
number of chunks by construction (one bounded input each) and would take minutes. Printed: seconds for each size and
the ratio of seconds per character, large over small (1.0 is linear; a quadratic step gives about --factor).

Run with the product's environment:
    .venv/bin/python bench/bench_single_line.py [--size 200000] [--factor 4]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grounding.chunking import chunk_blocks  # noqa: E402
from grounding.claims import claims  # noqa: E402
from grounding.embeddings import MiniLMEmbedder  # noqa: E402
from grounding.extract import extract_document  # noqa: E402
from grounding.retrieve import input_limit  # noqa: E402
from grounding.sentence_store import chunk_layout  # noqa: E402
from grounding.tokens import counter_for  # noqa: E402

WORDS = ("staff member may claim daily allowance meals travelling receipts expense manager approves within days "
         "office trip hotel night flight economy booking approval department head policy").split()


def single_line(chars: int, seed: int) -> bytes:
    """A single-line Markdown text of about ``chars`` characters: numbered sentences of random words, some with
    emphasis, a link or an amount, so that no two lines of work are alike."""
    rnd = random.Random(seed)
    out, size, i = [], 0, 0
    while size < chars:
        words = " ".join(rnd.choice(WORDS) for _ in range(rnd.randint(8, 24)))
        extra = rnd.choice(["", " for **meals**", " at [the portal](https://example.org)", f" up to ${i % 500}"])
        sentence = f"Rule {i}: the {words}{extra}."
        out.append(sentence)
        size += len(sentence) + 1
        i += 1
    return " ".join(out).encode()


def run(data: bytes, embedder, counter) -> tuple[float, int]:
    """Seconds to read, chunk and prepare the sentences of one single-line file, and its chunk count."""
    start = time.perf_counter()
    parsed = extract_document(data, "single-line.md")
    drafts = chunk_blocks(parsed.blocks, counter, limit=input_limit(embedder, title=parsed.title))
    for d in drafts:
        claims(d.text)
        chunk_layout(d.text)
    return time.perf_counter() - start, len(drafts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=200_000, help="characters of the small file")
    parser.add_argument("--factor", type=int, default=4, help="the large file is this many times longer")
    args = parser.parse_args()
    embedder = MiniLMEmbedder()
    embedder.count_tokens(["warm up"])
    counter = counter_for("extractive")
    counter.raw("warm up")
    small, large = single_line(args.size, 1), single_line(args.size * args.factor, 2)
    t_small, n_small = run(small, embedder, counter)
    t_large, n_large = run(large, embedder, counter)
    print(f"{len(small):>10,} chars {n_small:>6} chunks {t_small:7.2f} s")
    print(f"{len(large):>10,} chars {n_large:>6} chunks {t_large:7.2f} s")
    ratio = (t_large / len(large)) / (t_small / len(small))
    print(f"seconds per character, large / small: {ratio:.2f} (1.0 linear, about {args.factor} quadratic); "
          f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
