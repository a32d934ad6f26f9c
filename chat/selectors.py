"""Reads for the chat app: exports of a conversation."""

from __future__ import annotations

from chat.models import Conversation, Message


def conversation_markdown(*, conversation: Conversation) -> str:
    """The conversation as Markdown for download: each question, each answer with its [S#] markers, and under each
    answer the sources it cited as frozen when it was given (title, section, version, date, the cited text), plus its
    contradiction notes and its status when it did not complete. Access is the caller's to check.

    Returns:
        Markdown text (characters); "" never: a conversation without turns gives its heading only.
    """
    lines = [f"# {conversation}", "", f"Documents: {conversation.domain.name}  ",
             f"Started: {conversation.created_at:%Y-%m-%d %H:%M} UTC", ""]
    for m in conversation.messages.order_by("pk"):
        if m.role == Message.Role.USER:
            lines += ["## Question", "", m.text, ""]
            continue
        lines += ["### Answer" + ("" if m.status == Message.Status.COMPLETE else f" ({m.status})"), ""]
        lines += [m.text or "(no text)", ""]
        if m.abstained:
            lines += ["_The documents did not hold the answer._", ""]
        if m.error and m.status != Message.Status.COMPLETE:
            lines += [f"_Not completed: {m.error}_", ""]
        for note in m.trace.get("notes", []):
            lines += [f"> Note: {note.get('text', '')}", ""]
        by_label = {s.get("label"): s for s in m.sources}
        cited = list(dict.fromkeys(c.get("label") for c in m.citations))
        if cited:
            lines.append("Sources:")
            for label in cited:
                s = by_label.get(label, {})
                where = " > ".join(p for p in (s.get("title", ""), s.get("section", "")) if p)
                meta = ", ".join(p for p in (s.get("version", ""), s.get("date", ""), s.get("status", ""))
                                 if p and p != "current")
                quote = next((c.get("cited_text", "") for c in m.citations if c.get("label") == label), "")
                lines.append(f"- [{label}] {where}" + (f" ({meta})" if meta else "")
                             + (f": \"{' '.join(quote.split())}\"" if quote else ""))
            lines.append("")
    return "\n".join(lines).rstrip() + "\n"
