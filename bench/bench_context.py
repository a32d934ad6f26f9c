"""Benchmark: plan the context for 50 candidate sources and a 1,000-turn history (case C04).

Compares, in the same run and on the same data:
  ours       grounding.context.plan_context (budget, exact + near dedup, adjacent merge, selection, edges order,
             exact real count)
  llamaindex ChatSummaryMemoryBuffer (summarizer stubbed with MockLLM) over the history + LongContextReorder over the
             candidates
  langchain  EmbeddingsRedundantFilter (precomputed vectors) + LongContextReorder over the candidates (LangChain has
             no budgeted history step; its number is a floor for the source side only)

Reports p50/p95 latency (ms) and ratios against ours. Targets (issue 3): ours p50 <= 2 ms and >= 20x faster than
the LlamaIndex path. Machines here are noisy, so the ratio is the figure to read.

Run (separate environment; nothing here is installed by the app or the tests):
    python3 -m venv bench/.venv && bench/.venv/bin/pip install -r bench/requirements.txt
    PYTHONPATH=. bench/.venv/bin/python bench/bench_context.py [--runs 200]
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
from grounding.prompt import DEFAULT_SYSTEM_PROMPT  # noqa: E402
from grounding.tokens import _encoding, counter_for  # noqa: E402
from grounding.types import Candidate, Chunk, Turn  # noqa: E402

TOPICS = ["travel", "leave", "security", "equipment", "benefits", "onboarding", "payroll", "conduct"]


def make_data(seed: int = 7):
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
                      ordinal=i % 3, version_id=i // 3 + 1)
        candidates.append(Candidate(chunk=chunk, score=1 / (60 + i), dense=0.9 - i * 0.01, rank=i + 1, vector=vec))
    turn_text = "This answer explains the travel policy, the meal allowance and the approval steps in detail. " * 10
    history = [Turn("user" if i % 2 == 0 else "assistant", f"Turn {i}. {turn_text}", counter.raw(f"Turn {i}. {turn_text}"))
               for i in range(1_000)]
    return candidates, history


def bench(fn, runs: int) -> list[float]:
    fn()  # warm caches, as a long-running server would be
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    candidates, history = make_data()
    counter = counter_for("extractive")
    settings = ContextSettings(policy=BudgetPolicy(window=16_000), ordering="edges")
    question = "What is the meal allowance when I travel?"

    def ours():
        return plan_context(question=question, candidates=candidates, history=history,
                            system_prompt=DEFAULT_SYSTEM_PROMPT, settings=settings, counter=counter)

    plan = ours()
    results = {"ours": bench(ours, args.runs)}
    history_share = int(plan.budget["history_share"])

    try:
        from llama_index.core import Settings as LISettings
        from llama_index.core.llms import ChatMessage, MockLLM
        from llama_index.core.memory import ChatSummaryMemoryBuffer
        from llama_index.core.postprocessor import LongContextReorder
        from llama_index.core.schema import NodeWithScore, TextNode
    except ImportError:
        print("llama-index-core not installed: pip install -r bench/requirements.txt", file=sys.stderr)
        raise
    encode = _encoding().encode_ordinary
    LISettings.tokenizer = encode
    messages = [ChatMessage(role=t.role, content=t.text) for t in history]
    nodes = [NodeWithScore(node=TextNode(text=c.chunk.text, id_=str(c.chunk.chunk_id)), score=c.dense)
             for c in candidates]
    reorder = LongContextReorder()

    def llamaindex():
        # a fresh list per run: ChatSummaryMemoryBuffer rewrites the chat_history list it is given in place (the
        # summarized turns are removed from it), so reusing one list would time a shorter history on every run
        memory = ChatSummaryMemoryBuffer.from_defaults(chat_history=list(messages), llm=MockLLM(max_tokens=64),
                                                       token_limit=history_share, tokenizer_fn=encode)
        memory.get()
        return reorder.postprocess_nodes(nodes)

    results["llamaindex"] = bench(llamaindex, max(10, args.runs // 10))

    from langchain_community.document_transformers import EmbeddingsRedundantFilter
    from langchain_community.document_transformers import LongContextReorder as LCReorder
    from langchain_core.documents import Document
    from langchain_core.embeddings import Embeddings

    vectors = {c.chunk.text + str(c.chunk.chunk_id): c.vector.tolist() for c in candidates}

    class Precomputed(Embeddings):
        def embed_documents(self, texts):
            return [lookup[t] for t in texts]

        def embed_query(self, text):
            return lookup[text]

    docs = [Document(page_content=f"{c.chunk.text}\u200b{c.chunk.chunk_id}") for c in candidates]
    lookup = {d.page_content: vectors[c.chunk.text + str(c.chunk.chunk_id)] for d, c in zip(docs, candidates)}
    redundant = EmbeddingsRedundantFilter(embeddings=Precomputed(), similarity_threshold=0.95)
    lc_reorder = LCReorder()

    def langchain():
        return lc_reorder.transform_documents(redundant.transform_documents(docs))

    results["langchain"] = bench(langchain, args.runs)

    ours_p50 = statistics.median(results["ours"])
    print(f"context planning: 50 candidates, 1,000-turn history, 16k window ({args.runs} runs)")
    print(f"{'path':<12}{'p50 ms':>10}{'p95 ms':>10}{'p50 / ours':>12}")
    for name, times in results.items():
        p50 = statistics.median(times)
        p95 = statistics.quantiles(times, n=20)[-1]
        print(f"{name:<12}{p50:>10.3f}{p95:>10.3f}{p50 / ours_p50:>12.1f}")
    print(f"ours: {len(plan.sources)} sources, {len(plan.history)} history turns, total {plan.budget['total']} "
          f"<= limit {plan.budget['limit']} tokens")
    speedup = statistics.median(results["llamaindex"]) / ours_p50
    print(f"targets: ours p50 <= 2 ms: {'met' if ours_p50 <= 2 else 'NOT met'}; "
          f">= 20x faster than LlamaIndex: {'met' if speedup >= 20 else 'NOT met'} ({speedup:.0f}x)")


if __name__ == "__main__":
    main()
