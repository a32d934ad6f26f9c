"""A question keeps every answer it was given (regenerated answers sit beside the earlier ones: reply_to becomes a
foreign key, related name `answers`), and each answer the asker's feedback (helpful or not, with an optional reason)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('chat', '0004_client_key'),
    ]

    operations = [
        migrations.AddField(
            model_name='message',
            name='feedback',
            field=models.CharField(blank=True, choices=[('helpful', 'helpful'), ('unhelpful', 'not helpful')], default='', max_length=10),
        ),
        migrations.AddField(
            model_name='message',
            name='feedback_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='message',
            name='feedback_reason',
            field=models.TextField(blank=True, default=''),
        ),
        migrations.AlterField(
            model_name='message',
            name='reply_to',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='answers', to='chat.message'),
        ),
    ]
