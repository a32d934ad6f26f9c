"""Benchmark: plan the context for 50 candidate sources and a 1,000-turn history (case C04), warm and cold.

Compares, in the same run and on the same data:
  ours       grounding.context.plan_context (budget, exact + near dedup, adjacent merge, selection, edges order,
             exact real count)
  llamaindex ChatSummaryMemoryBuffer (summarizer stubbed with MockLLM) over the history + LongContextReorder over the
             candidates
  langchain  EmbeddingsRedundantFilter (precomputed vectors) + LongContextReorder over the candidates (LangChain has
             no budgeted history step; its number is a floor for the source side only)

Two modes, both reported (issue 20):
  warm  the same candidates, history and question on every run, as a server answering one question again
  cold  a different history, candidate set and question on every run (real 18F handbook paragraphs and questions),
        and every cache of ours cleared before each run (the functools caches of grounding: token counts, sentence
        splits, formatted sources, quarantine, merged texts, content terms; the loaded tokenizer and sentence splitter
        stay loaded): what a new question over new passages costs. Candidates carry what the retrieval index gives
        (vectors, the exact-deduplication key, the near-duplicate value key and the check for passages addressed to an
        AI assistant, all made at ingestion); turns carry their token counts and content terms (both found when the
        message is saved: chat.memory.history_cost); the system prompt its count (made when an admin saves a
        version: knowledge.models.SystemPrompt.tokens). The other paths get the same fresh data per
        run. numpy's BLAS runs on one thread for every path (threadpoolctl).

Reports p50/p95 latency (ms) and ratios against ours per mode; the cold ratio is the headline. Targets (issues 3 and
20): cold, ours p50 <= 2 ms, >= 20x faster than the LlamaIndex path and faster than LangChain's (unbudgeted) path.
Machines here are noisy, so the ratios (measured run by run, interleaved) are the figures to read.

Run (separate environment; nothing here is installed by the app or the tests):
    python3 -m venv bench/.venv && bench/.venv/bin/pip install -r bench/requirements.txt
    PYTHONPATH=. bench/.venv/bin/python bench/bench_context.py [--runs 200] [--mode both|warm|cold]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
warnings.filterwarnings("ignore", category=DeprecationWarning)

from grounding.budget import BudgetPolicy  # noqa: E402
from grounding.context import ContextSettings, plan_context  # noqa: E402
from grounding.dedup import text_hash, value_key  # noqa: E402
from grounding.injection import injection_signals  # noqa: E402
from grounding.lexical import content_terms  # noqa: E402
from grounding.prompt import DEFAULT_SYSTEM_PROMPT  # noqa: E402
from grounding.token_pieces import cl100k, raw_count  # noqa: E402
from grounding.tokens import counter_for  # noqa: E402
from grounding.types import Candidate, Chunk, Turn  # noqa: E402

TOPICS = ["travel", "leave", "security", "equipment", "benefits", "onboarding", "payroll", "conduct"]
ROOT = Path(__file__).resolve().parent.parent
PAGES = ROOT.parent / "shared" / "corpora" / "18f-handbook" / "current" / "pages"
QUESTIONS = ROOT / "evaluation" / "golden" / "18f.jsonl"


def make_data(seed: int = 7):
    """The warm mode's data: 50 synthetic candidates (every tenth a near duplicate) and a 1,000-turn history."""
    rng = np.random.default_rng(seed)
    counter = counter_for("extractive")
    candidates = []
    for i in range(50):
        topic = TOPICS[i % len(TOPICS)]
        text = (f"Section {i} of the {topic} policy. Employees must follow rule {i} when they handle {topic} "
                f"requests; the limit is {i * 10} dollars and approvals take {i % 7 + 1} days. ") * 5
        vec = rng.normal(size=384).astype(np.float32)
        if i % 10 == 9:  # every tenth candidate nearly duplicates the one before it
            vec = candidates[-1].vector + rng.normal(scale=0.01, size=384).astype(np.float32)
            text = candidates[-1].chunk.text
        vec /= np.linalg.norm(vec)
        chunk = Chunk(chunk_id=i + 1, document_id=i // 3, title=f"{topic.title()} policy", section=f"Part {i}",
                      version="v1", date=f"2024-0{i % 9 + 1}-01", text=text, tokens=counter.raw(text),
                      ordinal=i % 3, version_id=i // 3 + 1, text_key=text_hash(text),
                      injection=bool(injection_signals(text)), value_key=value_key(text))
        candidates.append(Candidate(chunk=chunk, score=1 / (60 + i), dense=0.9 - i * 0.01, rank=i + 1, vector=vec))
    turn_text = "This answer explains the travel policy, the meal allowance and the approval steps in detail. " * 10
    history = [Turn("user" if i % 2 == 0 else "assistant", f"Turn {i}. {turn_text}", counter.raw(f"Turn {i}. {turn_text}"))
               for i in range(1_000)]
    return candidates, history


def handbook_paragraphs() -> list[tuple[str, str]]:
    """(page title, paragraph) of the 18F handbook's pages, paragraphs of at least 200 characters, in a fixed order."""
    out = []
    for path in sorted(PAGES.rglob("*.md")):
        text = path.read_text(encoding="utf-8")
        if text.startswith("---"):
            text = text.split("---", 2)[-1]
        title = path.stem.replace("-", " ").capitalize()
        out += [(title, p.strip()) for p in text.split("\n\n") if len(p.strip()) >= 200]
    return out


def handbook_questions() -> list[str]:
    import json

    records = [json.loads(line) for line in QUESTIONS.read_text().splitlines() if line.strip()]
    return [r["question"] if "question" in r else r["turns"][0]["question"] for r in records]  # a conversation's opener


def cold_data(run: int, rng: np.random.Generator, paragraphs: list[tuple[str, str]], questions: list[str]):
    """One cold run's data: 50 candidates of 2-4 handbook paragraphs each (every tenth an exact copy of the one before
    under another chunk id, every tenth plus five a near duplicate with another number), a 1,000-turn history of
    other paragraphs, and a question; all new to the process (the run number is in every text)."""
    counter = counter_for("extractive")
    candidates = []
    picks = rng.choice(len(paragraphs), size=(50, 4))
    for i in range(50):
        title = paragraphs[picks[i][0]][0]
        text = f"({run}.{i}) " + "\n".join(paragraphs[j][1] for j in picks[i][:2 + i % 3])
        vec = rng.normal(size=384).astype(np.float32)
        if i % 10 == 9:
            text = candidates[-1].chunk.text  # an exact copy (another document's chunk)
            vec = candidates[-1].vector.copy()
        elif i % 10 == 5:
            text = candidates[-1].chunk.text.replace(f"({run}.{i - 1})", f"({run}.{i - 1}) 15")
            vec = candidates[-1].vector + rng.normal(scale=0.01, size=384).astype(np.float32)
        vec /= np.linalg.norm(vec)
        chunk = Chunk(chunk_id=run * 100 + i + 1, document_id=run * 100 + i // 3, title=title, section=f"Part {i}",
                      version="v1", date=f"2024-0{i % 9 + 1}-01", text=text, tokens=counter.raw(text),
                      ordinal=i % 3, version_id=run * 100 + i // 3 + 1, text_key=text_hash(text),
                      injection=bool(injection_signals(text)), value_key=value_key(text))
        candidates.append(Candidate(chunk=chunk, score=1 / (60 + i), dense=0.9 - i * 0.01, rank=i + 1, vector=vec))
    turns = rng.choice(len(paragraphs), size=1_000)
    history = []
    for i, j in enumerate(turns):
        text = f"Turn {run}.{i}. {paragraphs[j][1]}"
        history.append(Turn("user" if i % 2 == 0 else "assistant", text, counter.raw(text), content_terms(text)))
    question = f"{questions[run % len(questions)]} ({run})"
    return candidates, history, question


def clear_caches() -> int:
    """Clear every functools cache of grounding except the loaded resources (maxsize 1: the tokenizer, the sentence
    splitter). Returns how many were cleared."""
    cleared = 0
    for name, module in list(sys.modules.items()):
        if not name.startswith("grounding"):
            continue
        for value in list(vars(module).values()):
            info = getattr(value, "cache_info", None)
            if callable(info) and hasattr(value, "cache_clear") and info().maxsize != 1:
                value.cache_clear()
                cleared += 1
    return cleared


def bench(fn, runs: int) -> list[float]:
    fn()  # warm caches, as a long-running server would be
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return times


def timed(fn) -> tuple[float, object]:
    start = time.perf_counter()
    out = fn()
    return (time.perf_counter() - start) * 1000, out


class Paths:
    """The three paths over one data set (candidates, history, question)."""

    def __init__(self) -> None:
        try:
            from llama_index.core import Settings as LISettings
            from llama_index.core.llms import ChatMessage, MockLLM
            from llama_index.core.memory import ChatSummaryMemoryBuffer
            from llama_index.core.postprocessor import LongContextReorder
            from llama_index.core.schema import NodeWithScore, TextNode
        except ImportError:
            print("llama-index-core not installed: pip install -r bench/requirements.txt", file=sys.stderr)
            raise
        from langchain_community.document_transformers import EmbeddingsRedundantFilter
        from langchain_community.document_transformers import LongContextReorder as LCReorder
        from langchain_core.documents import Document
        from langchain_core.embeddings import Embeddings

        self.encode = cl100k().encode_ordinary
        LISettings.tokenizer = self.encode
        self.li = (ChatMessage, MockLLM, ChatSummaryMemoryBuffer, NodeWithScore, TextNode)
        self.li_reorder = LongContextReorder()
        self.Document = Document
        self.lookup: dict[str, list[float]] = {}
        lookup = self.lookup

        class Precomputed(Embeddings):
            def embed_documents(self, texts):
                return [lookup[t] for t in texts]

            def embed_query(self, text):
                return lookup[text]

        self.redundant = EmbeddingsRedundantFilter(embeddings=Precomputed(), similarity_threshold=0.95)
        self.lc_reorder = LCReorder()
        self.counter = counter_for("extractive")
        self.settings = ContextSettings(policy=BudgetPolicy(window=16_000), ordering="edges")
        # the system prompt's count is stored with its version when an admin saves it (knowledge.models.SystemPrompt.
        # tokens), as a chunk's is at ingestion: made once here, not per plan
        self.stored_counts = (raw_count(DEFAULT_SYSTEM_PROMPT.strip()), None)

    def ours(self, candidates, history, question):
        return lambda: plan_context(question=question, candidates=candidates, history=history,
                                    system_prompt=DEFAULT_SYSTEM_PROMPT, settings=self.settings, counter=self.counter,
                                    stored_counts=self.stored_counts)

    def llamaindex(self, candidates, history, history_share):
        ChatMessage, MockLLM, ChatSummaryMemoryBuffer, NodeWithScore, TextNode = self.li
        messages = [ChatMessage(role=t.role, content=t.text) for t in history]
        nodes = [NodeWithScore(node=TextNode(text=c.chunk.text, id_=str(c.chunk.chunk_id)), score=c.dense)
                 for c in candidates]

        def run():
            # a fresh list per run: ChatSummaryMemoryBuffer rewrites the chat_history list it is given in place (the
            # summarized turns are removed from it), so reusing one list would time a shorter history on every run
            memory = ChatSummaryMemoryBuffer.from_defaults(chat_history=list(messages), llm=MockLLM(max_tokens=64),
                                                           token_limit=history_share, tokenizer_fn=self.encode)
            memory.get()
            return self.li_reorder.postprocess_nodes(nodes)

        return run

    def langchain(self, candidates):
        docs = [self.Document(page_content=f"{c.chunk.text}\u200b{c.chunk.chunk_id}") for c in candidates]
        self.lookup.clear()
        self.lookup.update({d.page_content: c.vector.tolist() for d, c in zip(docs, candidates)})
        return lambda: self.lc_reorder.transform_documents(self.redundant.transform_documents(docs))


def warm_mode(paths: Paths, runs: int) -> dict[str, list[float]]:
    candidates, history = make_data()
    question = "What is the meal allowance when I travel?"
    ours = paths.ours(candidates, history, question)
    plan = ours()
    results = {"ours": bench(ours, runs)}
    results["llamaindex"] = bench(paths.llamaindex(candidates, history, int(plan.budget["history_share"])),
                                  max(10, runs // 10))
    results["langchain"] = bench(paths.langchain(candidates), runs)
    return results


def cold_mode(paths: Paths, runs: int) -> dict[str, list[float]]:
    paragraphs, questions = handbook_paragraphs(), handbook_questions()
    rng = np.random.default_rng(20)
    results: dict[str, list[float]] = {"ours": [], "llamaindex": [], "langchain": []}
    for run in range(runs + 1):  # run 0 loads what stays loaded (tokenizer, splitter); not counted
        candidates, history, question = cold_data(run, rng, paragraphs, questions)
        clear_caches()
        ms, plan = timed(paths.ours(candidates, history, question))
        li_ms, _ = timed(paths.llamaindex(candidates, history, int(plan.budget["history_share"])))
        lc_ms, _ = timed(paths.langchain(candidates))
        if run:
            results["ours"].append(ms)
            results["llamaindex"].append(li_ms)
            results["langchain"].append(lc_ms)
    return results


def report(mode: str, results: dict[str, list[float]], runs: int) -> dict[str, float]:
    ours_p50 = statistics.median(results["ours"])
    print(f"\n{mode}: planning 50 candidates, 1,000-turn history, 16k window ({runs} runs)")
    print(f"{'path':<12}{'p50 ms':>10}{'p95 ms':>10}{'p50 / ours':>12}")
    for name, times in results.items():
        p50 = statistics.median(times)
        p95 = statistics.quantiles(times, n=20)[-1]
        print(f"{name:<12}{p50:>10.3f}{p95:>10.3f}{p50 / ours_p50:>12.1f}")
    li = statistics.median(results["llamaindex"]) / ours_p50
    lc = statistics.median(results["langchain"]) / ours_p50
    print(f"targets ({mode}): ours p50 <= 2 ms: {'met' if ours_p50 <= 2 else 'NOT met'} ({ours_p50:.2f} ms); "
          f">= 20x faster than LlamaIndex: {'met' if li >= 20 else 'NOT met'} ({li:.1f}x); "
          f"faster than LangChain: {'met' if lc > 1 else 'NOT met'} ({lc:.2f}x)")
    return {"ours_p50_ms": ours_p50, "llamaindex_ratio": li, "langchain_ratio": lc}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--mode", choices=("both", "warm", "cold"), default="both")
    args = parser.parse_args()
    import os

    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=1)  # numpy's BLAS on one thread for every path alike (a server plans on one core)
    paths = Paths()
    print(f"load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} CPUs, BLAS threads pinned to 1")
    summary = {}
    if args.mode in ("both", "cold"):
        summary["cold"] = report("cold", cold_mode(paths, args.runs), args.runs)
    if args.mode in ("both", "warm"):
        summary["warm"] = report("warm", warm_mode(paths, args.runs), args.runs)
    print(f"load average {os.getloadavg()[0]:.1f}")
    print(summary)


if __name__ == "__main__":
    main()
