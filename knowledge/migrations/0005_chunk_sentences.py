from django.db import migrations, models


class Migration(migrations.Migration):
    """Chunks keep their sentences and the sentences' embeddings, made once at ingestion (issue 20 point 3): conflict
    detection reads them at ask time instead of embedding the planned sources' sentences per question; and whether
    their text addresses an AI assistant, so that planning scans only the chunks that do."""

    dependencies = [("knowledge", "0004_office_ingest")]

    operations = [
        migrations.AddField(
            model_name="chunk", name="sentences",
            field=models.JSONField(blank=True, default=list,
                                   help_text="the text's sentences as contradiction detection reads them "
                                             "(grounding.contradictions.claims), split once at ingestion")),
        migrations.AddField(
            model_name="chunk", name="sentence_vectors",
            field=models.BinaryField(blank=True, default=b"",
                                     help_text="float32 little-endian (len(sentences), 384), L2-normalised: the "
                                               "sentences' embeddings, made once at ingestion")),
        migrations.AddField(
            model_name="chunk", name="injection",
            field=models.BooleanField(blank=True, null=True,
                                      help_text="whether the text has a passage addressed to an AI assistant "
                                                "(grounding.injection), checked once at ingestion; empty: not checked")),
    ]
