"""Evaluation of the grounded answers on public data and golden questions (``manage.py evaluate``).

common     data location, errors, JSON lines, the caching embedder
data       cases built from ../shared/eval (RAMDocs, ConditionalQA, RGB en_fact, ConflictQA)
pipeline   the temporary domain and one answer through the chat's code path
metrics    metrics with targets, suite results, answer matching
suites     the suites of ``evaluate``: their metrics, targets and default limits
runner     cases asked through the pipeline once each; the citation chip check
answer_suites  abstention, answers and citations; check_suites  support and conflicts
support    the support check against ExpertQA labels (also ``manage.py support_eval``)
conflicts  the contradiction detector on the conflict sets (also ``manage.py conflict_eval``)
report     results.json, report.html with a chart per metric, the summary table, --check
"""
