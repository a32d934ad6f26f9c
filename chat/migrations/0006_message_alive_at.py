from django.db import migrations, models


class Migration(migrations.Migration):
    """A streaming answer's heartbeat: when its generating task last said it is alive."""

    dependencies = [("chat", "0005_answers_and_feedback")]

    operations = [
        migrations.AddField(model_name="message", name="alive_at",
                            field=models.DateTimeField(blank=True, null=True)),
    ]
