from django.db import migrations, models


def fill_skeletons(apps, schema_editor):
    # The display names' skeletons, and the usernames' again: a letter not in ASCII is now
    # compared as written too (Cyrillic "В" is "B").
    from accounts.usernames import skeleton

    User = apps.get_model("accounts", "User")
    for user in User.objects.only("pk", "username", "display_name").iterator():
        User.objects.filter(pk=user.pk).update(
            username_skeleton=skeleton(user.username),
            display_name_skeleton=skeleton(user.display_name)[:150],
        )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0007_push_preferences"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="display_name_skeleton",
            field=models.CharField(db_index=True, default="", editable=False, max_length=150),
        ),
        migrations.RunPython(fill_skeletons, migrations.RunPython.noop),
    ]
