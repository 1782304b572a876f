"""The skeletons again, now that they leave out what shows nothing and fold letter-like
forms and diacritics (accounts.usernames, issue 45)."""

from django.db import migrations


def refill_skeletons(apps, schema_editor):
    from accounts.usernames import skeleton

    User = apps.get_model("accounts", "User")
    for user in User.objects.only("pk", "username", "display_name").iterator():
        User.objects.filter(pk=user.pk).update(
            username_skeleton=skeleton(user.username),
            display_name_skeleton=skeleton(user.display_name)[:150],
        )


class Migration(migrations.Migration):
    dependencies = [("accounts", "0014_session_backends")]

    operations = [migrations.RunPython(refill_skeletons, migrations.RunPython.noop)]
