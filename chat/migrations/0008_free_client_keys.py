"""Every question sent with a client id holds its idempotency key where the key is free, so that a resend is found
by the key alone (chat.orchestration.ask_store no longer looks among keyless questions).

0004 gave the key to the first question of each (user, client id); a later question with the same pair (the old
uniqueness was per conversation) kept none. Once the key's holder is deleted (its conversation removed), the key is
free and such a question was found only by its client id in its conversation: it takes the key now (the oldest
first). A question whose key another question holds stays keyless: a resend finds the holder, as before.
"""

from django.db import migrations


def fill_free_keys(apps, schema_editor):
    Message = apps.get_model("chat", "Message")
    taken = set(Message.objects.exclude(client_key="").values_list("client_key", flat=True))
    rows = (Message.objects.filter(role="user", client_key="").exclude(client_id="")
            .values_list("pk", "client_id", "conversation__user_id").order_by("pk"))
    for pk, client_id, user_id in rows.iterator():
        key = f"{user_id}:{client_id[:64]}"
        if key in taken:
            continue
        taken.add(key)
        Message.objects.filter(pk=pk).update(client_key=key)


class Migration(migrations.Migration):
    dependencies = [("chat", "0007_message_terms")]

    operations = [migrations.RunPython(fill_free_keys, migrations.RunPython.noop)]
