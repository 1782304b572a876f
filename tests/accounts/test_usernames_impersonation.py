"""Display names that pass for another player's (issue 45): invisible characters, letter-like
symbols, diacritics and letters of other scripts that look Latin are refused, each one of a
list of known tricks; ordinary names in ten scripts are accepted. (Diacritics make another
name: jürgen is not jurgen, tests/accounts/test_usernames.py.)"""

from __future__ import annotations

import pytest

from accounts import usernames
from tests.accounts.test_usernames_display_names import set_display_name
from tests.conftest import make_person

# Each trick passes for alice, bob, daniel or olga (accounts that exist in the test).
TRICKS = [
    # Invisible characters (default-ignorable code points)
    "a\u034flice",  # combining grapheme joiner
    "al\u200bice",  # zero width space
    "ali\u200cce",  # zero width non-joiner
    "alic\u200de",  # zero width joiner
    "\u2060alice",  # word joiner
    "alice\ufeff",  # zero width no-break space
    "al\u00adice",  # soft hyphen
    "a\u180elice",  # Mongolian vowel separator
    "bob\ufe0f",  # variation selector 16
    "b\u115fob",  # Hangul choseong filler
    "bo\u3164b",  # Hangul filler
    "b\uffa0ob",  # halfwidth Hangul filler
    "\u061cbob",  # Arabic letter mark
    "bob\u200e",  # left-to-right mark
    "b\u2063ob",  # invisible separator
    "bo\U000e0062b",  # tag letter b
    "a\u17b4lice",  # Khmer vowel inherent aq
    "ali\u2064ce",  # invisible plus
    "bob\U000e0100",  # variation selector 17
    "dan\U0001d173iel",  # musical symbol begin beam
    # Letter-like symbols
    "ᴀʟɪᴄᴇ",  # small capitals
    "ʙᴏʙ",
    "𝐚𝐥𝐢𝐜𝐞",  # mathematical bold
    "𝖆𝖑𝖎𝖈𝖊",  # mathematical bold fraktur
    "𝒶𝓁𝒾𝒸ℯ",  # mathematical script
    "𝕒𝕝𝕚𝕔𝕖",  # double-struck
    "𝚋𝚘𝚋",  # monospace
    "ａｌｉｃｅ",  # fullwidth
    "ⓐⓛⓘⓒⓔ",  # circled
    "🄰🄻🄸🄲🄴",  # squared
    "🅐🅛🅘🅒🅔",  # negative circled
    "🅰🅻🅸🅲🅴",  # negative squared
    "🇦🇱🇮🇨🇪",  # regional indicators
    "ᵃˡⁱᶜᵉ",  # modifier letters
    "ₐₗᵢcₑ",  # subscripts
    "ʙᴏʙ​",  # small capitals and a zero width space
    "aⅼice",  # small roman numeral fifty
    "ɑlice",  # Latin alpha
    "alıce",  # dotless i
    "ᴅᴀɴɪᴇʟ",
    # Digits and capitals for letters
    "0lga",  # digit zero
    "b0b",
    "B0B",
    "daոiel",  # Armenian vo for n
    "aliсe",  # Cyrillic es
    # Letters of other scripts that look Latin (mixed scripts)
    "аlice",  # Cyrillic а
    "alicе",  # Cyrillic е
    "Ꭺlice",  # Cherokee A
    "αlice",  # Greek alpha
    "Вob",  # Cyrillic Ве
    "bοb",  # Greek omicron
    "ᏴOB",  # Cherokee B
    "օlga",  # Armenian o
    "daniеl",  # Cyrillic е
    "dаniel",  # Cyrillic а
    "ԁaniel",  # Cyrillic komi de
    "a1ice",  # digit one for l
    "ΟLGA",  # Greek capital omicron
]
ORDINARY = [
    "José García",  # Latin
    "Владимир",  # Cyrillic
    "Σωκράτης",  # Greek
    "李小龙",  # Han
    "さくら",  # Hiragana
    "김민준",  # Hangul
    "محمد",  # Arabic
    "דוד",  # Hebrew
    "प्रिया",  # Devanagari
    "สมชาย",  # Thai
    "Արամ",  # Armenian
    "ნინო",  # Georgian
]


@pytest.fixture
def people(alice, bob):
    return [make_person("daniel"), make_person("olga")]


def test_the_list_is_long_enough():
    assert len(TRICKS) >= 50 and len(set(TRICKS)) == len(TRICKS)
    assert len(ORDINARY) >= 10


@pytest.mark.parametrize("name", TRICKS)
def test_every_known_trick_is_refused(client, people, charlie, name):
    response = set_display_name(client, charlie, name)

    assert response.status_code == 200, name
    charlie.refresh_from_db()
    assert charlie.display_name == "", name
    text = response.content.decode()
    assert "looks too much like another player" in text or "invisible" in text, name


@pytest.mark.parametrize("name", ORDINARY)
def test_ordinary_names_in_many_scripts_are_accepted(client, people, charlie, name):
    response = set_display_name(client, charlie, name)

    assert response.status_code == 302, response.content.decode()[:2000]
    charlie.refresh_from_db()
    assert charlie.display_name == usernames.normalise_display_name(name)


@pytest.mark.parametrize("name", ["a\u034flice", "ᴀʟɪᴄᴇ", "𝐚𝐥𝐢𝐜𝐞", "b0b", "ᏴOB"])
def test_usernames_fold_the_same_way(name):
    assert usernames.skeleton(name) in (usernames.skeleton("alice"), usernames.skeleton("bob"))
