# The Django app for games. Its subpackage games.guildhall is the rules engine, a pure library
# that imports nothing from Django, so this file must import nothing from Django either.
