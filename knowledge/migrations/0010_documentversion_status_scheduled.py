from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('knowledge', '0009_chunk_layout'),
    ]

    operations = [
        migrations.AlterField(
            model_name='documentversion',
            name='status',
            field=models.CharField(choices=[('current', 'Current'), ('draft', 'Draft'), ('superseded', 'Superseded'), ('scheduled', 'Scheduled')], default='current', max_length=20),
        ),
    ]
