"""Conversations and their messages (user turns and assistant answers with their frozen sources and trace)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from knowledge.models import Domain, SystemPrompt


class Conversation(models.Model):
    """A conversation of one user with one domain's documents."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="conversations")
    domain = models.ForeignKey(Domain, on_delete=models.PROTECT, related_name="conversations")
    title = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at"]

    def __str__(self) -> str:
        return self.title or f"Conversation {self.pk}"


class Message(models.Model):
    """One turn. Assistant messages keep the frozen source snapshot (as the model saw it), citations and trace."""

    class Role(models.TextChoices):
        USER = "user"
        ASSISTANT = "assistant"

    class Status(models.TextChoices):
        COMPLETE = "complete"
        STREAMING = "streaming"
        INTERRUPTED = "interrupted"
        FAILED = "failed"

    class Feedback(models.TextChoices):
        HELPFUL = "helpful", "helpful"
        UNHELPFUL = "unhelpful", "not helpful"

    conversation = models.ForeignKey(Conversation, on_delete=models.CASCADE, related_name="messages")
    role = models.CharField(max_length=10, choices=Role.choices)
    text = models.TextField(blank=True)
    tokens = models.PositiveIntegerField(default=0, help_text="cl100k tokens of the text")
    #: stemmed content terms of the text in its history form (grounding.lexical.content_terms), found when the text is
    #: saved, as ``tokens`` is; None for messages stored before they were kept (found when needed then)
    terms = models.JSONField(null=True, blank=True, default=None,
                             help_text="content terms of the history form, found when saved")
    client_id = models.CharField(max_length=64, blank=True, default="")
    #: "<user id>:<client id>" of a question sent with a client id (else ""): the idempotency key, unique whatever
    #: conversation the client named (B06)
    client_key = models.CharField(max_length=100, blank=True, default="", editable=False)
    #: an answer's question (None for a question); a question may have several answers (regenerated ones are kept
    #: beside the earlier ones: ``question.answers``; the latest is chat.selectors.answer_of)
    reply_to = models.ForeignKey("self", null=True, blank=True, on_delete=models.CASCADE, related_name="answers")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.COMPLETE)
    error = models.TextField(blank=True)
    abstained = models.BooleanField(default=False)
    html = models.TextField(blank=True)
    provider = models.CharField(max_length=100, blank=True)
    sources = models.JSONField(default=list, blank=True, help_text="frozen snapshot of the sources")
    citations = models.JSONField(default=list, blank=True)
    spans = models.JSONField(default=list, blank=True, help_text="cited sentence per citation occurrence")
    support = models.JSONField(default=dict, blank=True, help_text="per-sentence support check and coverage")
    invalid_citations = models.JSONField(default=list, blank=True)
    trace = models.JSONField(default=dict, blank=True, help_text="budget, dropped candidates, notes")
    stream_seq = models.PositiveIntegerField(default=0, help_text="while streaming: the delta seq the saved text "
                                                                  "reaches (a resumed socket continues after it)")
    prompt_version = models.ForeignKey(SystemPrompt, null=True, blank=True, on_delete=models.PROTECT,
                                       related_name="messages",
                                       help_text="system prompt version the answer used; empty: the built-in default")
    #: the asker's verdict on an answer ("" none yet), an optional reason, and when it was given
    feedback = models.CharField(max_length=10, choices=Feedback.choices, blank=True, default="")
    feedback_reason = models.TextField(blank=True, default="")
    feedback_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    #: while streaming: when the generating task last said it is alive (it touches the row every few seconds); a
    #: streaming answer silent for longer than chat.orchestration.ORPHANED_AFTER lost its server (a restart)
    alive_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["client_key"], condition=~models.Q(client_key=""),
                                    name="unique_client_key"),
        ]

    def __str__(self) -> str:
        return f"{self.role}: {self.text[:60]}"


class ConversationSummary(models.Model):
    """The rolling summary of a conversation's turns 1..covers (messages counted in order, user and assistant)."""

    conversation = models.OneToOneField(Conversation, on_delete=models.CASCADE, related_name="summary")
    text = models.TextField()
    covers = models.PositiveIntegerField(help_text="number of turns (messages) folded into the summary")
    tokens = models.PositiveIntegerField(help_text="cl100k tokens of the text")
    sources = models.JSONField(default=list, blank=True, help_text="titles of the documents the turns cited")
    chunk_ids = models.JSONField(default=list, blank=True)
    summarizer = models.CharField(max_length=50, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Summary of {self.conversation} (turns 1..{self.covers})"
