# Friends, blocks and messages are the community app's now (games.community, whose 0001 takes
# them into its state with their tables' names): out of the accounts' state only. The tables
# stay, rows and all; nothing here touches the database.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0016_account_deletion"),
        # The community app holds the models before the accounts let them go.
        ("community", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.RemoveField(
                    model_name='conversation',
                    name='started_by',
                ),
                migrations.RemoveField(
                    model_name='conversation',
                    name='user_a',
                ),
                migrations.RemoveField(
                    model_name='conversation',
                    name='user_b',
                ),
                migrations.RemoveField(
                    model_name='message',
                    name='conversation',
                ),
                migrations.RemoveField(
                    model_name='friendship',
                    name='friend',
                ),
                migrations.RemoveField(
                    model_name='friendship',
                    name='user',
                ),
                migrations.RemoveField(
                    model_name='message',
                    name='sender',
                ),
                migrations.DeleteModel(
                    name='Block',
                ),
                migrations.DeleteModel(
                    name='Conversation',
                ),
                migrations.DeleteModel(
                    name='Friendship',
                ),
                migrations.DeleteModel(
                    name='Message',
                ),
            ],
        ),
    ]
