"""The idempotency key of a question becomes the user + client id (B06), unique whatever the conversation."""

from django.db import migrations, models


def fill_keys(apps, schema_editor):
    Message = apps.get_model("chat", "Message")
    seen = set()
    rows = (Message.objects.filter(role="user").exclude(client_id="")
            .values_list("pk", "client_id", "conversation__user_id").order_by("pk"))
    for pk, client_id, user_id in rows.iterator():
        key = f"{user_id}:{client_id}"
        if key in seen:  # an older duplicate across conversations keeps no key (the first one answers resends)
            continue
        seen.add(key)
        Message.objects.filter(pk=pk).update(client_key=key)


class Migration(migrations.Migration):
    dependencies = [("chat", "0003_stream_seq")]

    operations = [
        migrations.AddField(model_name="message", name="client_key",
                            field=models.CharField(blank=True, default="", editable=False, max_length=100)),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
        migrations.RemoveConstraint(model_name="message", name="unique_client_id_per_conversation"),
        migrations.AddConstraint(model_name="message",
                                 constraint=models.UniqueConstraint(condition=~models.Q(client_key=""),
                                                                    fields=("client_key",), name="unique_client_key")),
    ]
