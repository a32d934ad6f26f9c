"""Benchmark: ingestion throughput per format (issue 21), and where the time goes (extraction vs embedding).

For each format, the shared 18F office files (../shared/corpora/18f-office) are ingested the way the product does it,
without the database: extraction (grounding.extract.extract_document: PDF text with pypdfium2 or OCR with Tesseract,
python-docx, python-pptx, openpyxl), chunking (grounding.chunking.chunk_blocks) and embedding of the chunks' index
text with the bundled MiniLM (grounding.embeddings). Throughput is pages per second of the whole (extraction +
chunking + embedding), and of extraction + chunking alone; a Word file has no fixed pages, so its pages are those of the PDF made from the same page
(MANIFEST.tsv maps both to one Markdown page); a presentation's pages are its slides, a workbook's its sheets.

Each format is run --runs times (default 3) and the median run is reported. Storing rows in the database and building
the retrieval index are not included (both are small next to these steps). The embedder's cache of short texts is off,
so every run embeds every chunk as a first ingestion does. Machines here are shared and noisy: read
the shares and the ratios between formats, not the absolute seconds.

Run with the product's environment:
    .venv/bin/python bench/bench_ingest.py [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grounding.chunking import chunk_blocks  # noqa: E402
from grounding.embeddings import MiniLMEmbedder  # noqa: E402
from grounding.extract import extract_document  # noqa: E402
from grounding.retrieve import index_text  # noqa: E402
from grounding.tokens import counter_for  # noqa: E402
from grounding.types import Chunk  # noqa: E402

OFFICE = ROOT.parent / "shared" / "corpora" / "18f-office"

FORMATS = {
    "PDF (text layer)": lambda n: n.endswith(".pdf") and "scanned" not in n,
    "PDF (scanned, OCR)": lambda n: n.endswith(".scanned.pdf"),
    "DOCX": lambda n: n.endswith(".docx"),
    "PPTX": lambda n: n.endswith(".pptx"),
    "XLSX": lambda n: n.endswith(".xlsx"),
}


def pages_of(name: str, parsed_pages: int) -> int:
    """Pages of a file: its own count, or for a Word file that of the PDF made from the same page."""
    if name.endswith(".docx"):
        twin = OFFICE / (name[:-5] + ".pdf")
        return extract_document(twin.read_bytes(), twin.name).pages
    return parsed_pages


def run_once(files: list[Path], embedder, counter) -> dict[str, float]:
    extract = embed = 0.0
    pages = chunks = 0
    for path in files:
        data = path.read_bytes()
        start = time.perf_counter()
        parsed = extract_document(data, path.name)
        drafts = chunk_blocks(parsed.blocks, counter)
        extract += time.perf_counter() - start
        texts = [index_text(Chunk(0, 0, parsed.title, " > ".join(d.section), "", "", d.text, d.tokens))
                 for d in drafts]
        start = time.perf_counter()
        embedder.embed(texts)
        embed += time.perf_counter() - start
        pages += pages_of(path.name, parsed.pages)
        chunks += len(drafts)
    return {"extract": extract, "embed": embed, "pages": pages, "chunks": chunks,
            "bytes": sum(p.stat().st_size for p in files)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    embedder = MiniLMEmbedder(cache_size=0)  # the product's model and batch size, without its cache of short texts
    embedder.embed(["warm up"])
    counter = counter_for("extractive")
    names = sorted(p.name for p in OFFICE.iterdir() if p.suffix in (".pdf", ".docx", ".pptx", ".xlsx"))
    print(f"{'format':<20} {'files':>5} {'pages':>5} {'chunks':>6} {'extract s':>9} {'embed s':>8} "
          f"{'pages/s':>8} {'extract pages/s':>15} {'extraction share':>16}")
    for label, wanted in FORMATS.items():
        files = [OFFICE / n for n in names if wanted(n)]
        runs = [run_once(files, embedder, counter) for _ in range(args.runs)]
        mid = sorted(runs, key=lambda r: r["extract"] + r["embed"])[len(runs) // 2]
        total = mid["extract"] + mid["embed"]
        print(f"{label:<20} {len(files):>5} {mid['pages']:>5} {mid['chunks']:>6} {mid['extract']:>9.2f} "
              f"{mid['embed']:>8.2f} {mid['pages'] / total:>8.1f} {mid['pages'] / mid['extract']:>15.1f} "
              f"{mid['extract'] / total:>16.0%}")
    print(f"({args.runs} runs per format, the median shown; {os.cpu_count()} cores; load average "
          f"{statistics.mean(os.getloadavg()):.1f})")


if __name__ == "__main__":
    main()
