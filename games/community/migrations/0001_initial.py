# The friends, blocks and messages move from the accounts app to the community app
# (games.community). Their tables stay as they are, under their names (accounts_friendship,
# accounts_block, accounts_conversation, accounts_message: the models' db_table): this
# migration changes the migrations' state only, and accounts' 0017 takes them out of the
# accounts' state. Nothing is written to the tables, so a database of the release before
# migrates without losing a row, and that release can still read them while this one starts.
# The models' content types (and with them their permissions and the admin's log) are
# renamed to the new app, so that no stale accounts.* type is left behind.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

MODELS = ["friendship", "block", "conversation", "message"]


def content_types_to_community(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    ContentType.objects.using(db).filter(app_label="accounts", model__in=MODELS).update(
        app_label="community"
    )


def content_types_to_accounts(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    ContentType.objects.using(db).filter(app_label="community", model__in=MODELS).update(
        app_label="accounts"
    )


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        # The tables were made by these: they must exist first.
        ("accounts", "0016_account_deletion"),
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name='Conversation',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('created', models.DateTimeField(auto_now_add=True)),
                        ('last_message_at', models.DateTimeField()),
                        ('a_read_at', models.DateTimeField(blank=True, null=True)),
                        ('b_read_at', models.DateTimeField(blank=True, null=True)),
                        ('started_by', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('user_a', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('user_b', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'accounts_conversation',
                    },
                ),
                migrations.CreateModel(
                    name='Friendship',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('created', models.DateTimeField(auto_now_add=True)),
                        ('friend', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='friendships', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'accounts_friendship',
                    },
                ),
                migrations.CreateModel(
                    name='Message',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('text', models.TextField(max_length=2000)),
                        ('created', models.DateTimeField(auto_now_add=True)),
                        ('hidden', models.BooleanField(default=False)),
                        ('conversation', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='messages', to='community.conversation')),
                        ('sender', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'accounts_message',
                    },
                ),
                migrations.CreateModel(
                    name='Block',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('created', models.DateTimeField(auto_now_add=True)),
                        ('blocked', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='blocks', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'accounts_block',
                        'indexes': [models.Index(fields=['blocked', 'user'], name='accounts_bl_blocked_da717c_idx')],
                        'constraints': [models.UniqueConstraint(fields=('user', 'blocked'), name='one_block_each'), models.CheckConstraint(condition=models.Q(('user', models.F('blocked')), _negated=True), name='no_block_of_oneself')],
                    },
                ),
                migrations.AddIndex(
                    model_name='conversation',
                    index=models.Index(fields=['user_a', '-last_message_at'], name='conversation_inbox_a'),
                ),
                migrations.AddIndex(
                    model_name='conversation',
                    index=models.Index(fields=['user_b', '-last_message_at'], name='conversation_inbox_b'),
                ),
                migrations.AddIndex(
                    model_name='conversation',
                    index=models.Index(fields=['started_by', 'created'], name='conversation_started'),
                ),
                migrations.AddConstraint(
                    model_name='conversation',
                    constraint=models.UniqueConstraint(fields=('user_a', 'user_b'), name='one_conversation_per_pair'),
                ),
                migrations.AddConstraint(
                    model_name='conversation',
                    constraint=models.CheckConstraint(condition=models.Q(('user_a__lt', models.F('user_b'))), name='conversation_pair_ordered'),
                ),
                migrations.AddConstraint(
                    model_name='friendship',
                    constraint=models.UniqueConstraint(fields=('user', 'friend'), name='one_friendship_each'),
                ),
                migrations.AddConstraint(
                    model_name='friendship',
                    constraint=models.CheckConstraint(condition=models.Q(('user', models.F('friend')), _negated=True), name='no_friend_of_oneself'),
                ),
                migrations.AddIndex(
                    model_name='message',
                    index=models.Index(fields=['conversation', 'created'], name='message_in_order'),
                ),
            ],
        ),
        migrations.RunPython(content_types_to_community, content_types_to_accounts),
    ]
