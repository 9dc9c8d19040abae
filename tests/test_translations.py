"""The site in Bulgarian and Russian: complete catalogues, compiled copies that match them, the
games' glossary followed, and no English left on any page or table state."""

from __future__ import annotations

import datetime
import re
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import polib
import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.template import Context, Template
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext, pgettext

from games.engines import belote
from games.live.frames import DealPause, render_frame
from games.models import Match
from games.presenters import grabush
from games.presenters.words import card_name
from games.records.history import side_label
from games.tables import matches, play, rows, seating
from tests.factories import OPTIONS, make_players, match_of

LANGUAGES = ("bg", "ru")
LOCALE = Path(settings.BASE_DIR) / "locale"
GLOSSARY = Path(settings.BASE_DIR) / "docs" / "glossary.md"
PLACEHOLDER = re.compile(r"%\(\w+\)[sdf]|%[sdf]")


def catalogue(language: str) -> polib.POFile:
    return polib.pofile(str(LOCALE / language / "LC_MESSAGES" / "django.po"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_entry_is_translated_and_none_is_fuzzy(language):
    po = catalogue(language)
    assert len(po) > 500
    assert [entry.msgid for entry in po.untranslated_entries()] == []
    assert [entry.msgid for entry in po.fuzzy_entries()] == []
    assert [entry.msgid for entry in po if entry.obsolete] == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_translations_keep_every_placeholder(language):
    wrong = []
    for entry in catalogue(language).translated_entries():
        if entry.msgid_plural:
            singular = Counter(PLACEHOLDER.findall(entry.msgid))
            plural = Counter(PLACEHOLDER.findall(entry.msgid_plural))
            for form, text in entry.msgstr_plural.items():
                found = Counter(PLACEHOLDER.findall(text))
                # A form for "one" may say the number in words ("a table"), as the msgid does.
                one = form == 0 and (
                    found == singular or found + Counter({"%(count)d": 1}) == plural
                )
                if found != plural and not one:
                    wrong.append((entry.msgid, form, text))
        elif Counter(PLACEHOLDER.findall(entry.msgstr)) != Counter(
            PLACEHOLDER.findall(entry.msgid)
        ):
            wrong.append((entry.msgid, entry.msgstr))
    assert wrong == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_compiled_catalogue_matches_its_source(language):
    """Compiled catalogues are committed (no GNU gettext at run time): they must be current."""

    def entries(catalogue) -> dict:
        return {
            (entry.msgctxt, entry.msgid): (entry.msgstr, dict(entry.msgstr_plural))
            for entry in catalogue
            if entry.msgid
            and not entry.obsolete
            and "fuzzy" not in entry.flags
            and (entry.msgstr or any(entry.msgstr_plural.values()))
        }

    compiled = polib.mofile(str(LOCALE / language / "LC_MESSAGES" / "django.mo"))
    assert entries(compiled) == entries(catalogue(language))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_admin_names_our_models_and_their_fields_in_the_language(language):
    english = []
    with translation.override(language):
        for model in apps.get_app_config("games").get_models():
            meta = model._meta
            labels = [meta.verbose_name, meta.verbose_name_plural]
            labels += [field.verbose_name for field in meta.get_fields() if not field.auto_created]
            english += [(model.__name__, str(label)) for label in labels if str(label).isascii()]
    assert english == []


def glossary() -> list[tuple[str, str, str, str]]:
    """The rows ``(section, English, Bulgarian, Russian)`` of the glossary's Belote and Cards
    tables."""
    rows, section = [], ""
    for line in GLOSSARY.read_text().splitlines():
        if line.startswith("## "):
            section = line[3:].strip()
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        heading = cells[0] == "English" or set(cells[0]) <= {"-"}
        if section in ("Belote", "Cards") and len(cells) == 3 and not heading:
            rows.append((section, cells[0], cells[1], cells[2]))
    return rows


def test_the_glossary_is_followed():
    rows = glossary()
    assert len(rows) > 25
    for section, english, bulgarian, russian in rows:
        for language, expected in (("bg", bulgarian), ("ru", russian)):
            with translation.override(language):
                shown = pgettext("card", english) if section == "Cards" else gettext(english)
                assert shown == expected, (language, english)
    with translation.override("bg"):
        assert card_name("JH") == "Вале купа"
    with translation.override("ru"):
        assert card_name("JH") == "Валет червей"


def test_grabush_speaks_its_russian_rules_words(client):
    page = client.get("/rules/grabush/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    for stem in ("стопк", "центральн", "книжечк", "блокировк", "замечани"):
        assert stem in page, stem


class Words(HTMLParser):
    """The words of a page a person reads or hears: text, and the labels of controls (not
    scripts, styles, URLs, or elements in another language: the switcher's "English")."""

    ATTRIBUTES = ("aria-label", "title", "placeholder", "alt")
    VOID = {"area", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[tuple[str, bool]] = []
        self.text: list[str] = []

    def _skipping(self) -> bool:
        return any(skip for _tag, skip in self.stack)

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        # Code (hashes, commands) and what is marked not to translate are the same in every
        # language.
        skip = (
            tag in ("script", "style", "code")
            or attributes.get("lang") == "en"
            or attributes.get("translate") == "no"
        )
        if not skip and not self._skipping():
            self.text += [attributes[name] or "" for name in self.ATTRIBUTES if name in attributes]
        if tag not in self.VOID:
            self.stack.append((tag, skip))

    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()[0] == tag:
                return

    def handle_data(self, data):
        if not self._skipping():
            self.text.append(data)


def english_words(html: str, names: tuple[str, ...]) -> list[str]:
    """Latin-letter words left in ``html`` once player names, URLs and the brand are gone."""
    parser = Words()
    parser.feed(html)
    text = " ".join(parser.text)
    text = re.sub(r"https?://\S+|/\S*", " ", text)
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    return [word for word in re.findall(r"[A-Za-z]{2,}", text) if word not in KEPT_WORDS]


#: Names every language writes as they are: the brand and technical names.
KEPT_WORDS = frozenset({"Cardroom", "SHA", "JSON", "Python"})


def untranslated(html: str, language: str) -> list[str]:
    """Catalogue msgids that appear as they are in the page's text (longer than a word)."""
    parser = Words()
    parser.feed(html)
    shown = {" ".join(part.split()) for part in parser.text}
    msgids = {" ".join(entry.msgid.split()) for entry in catalogue(language)}
    return sorted(text for text in shown & msgids if " " in text)


NAMES = ("Ана", "Борис", "Вера", "Глеб", "Дара", "Ема", "Жоро", "Зоя", "Иво")


def players(count: int):
    """Players with names in the page's own script: their names are not English."""
    users = make_players(count)
    for user, name in zip(users, NAMES, strict=False):
        user.username = name
        user.save()
    return users


def belote_move(table, users) -> Match:
    """Clubs from the first bidder, then passes, then the last legal card."""
    match = match_of(table)
    state = belote.loads(match.state)
    legal = belote.legal_actions(state, state.to_act)
    if belote.view(state, None)["phase"] == "auction":
        action = "C" if "C" in legal else "pass"
    else:
        action = legal[-1]
    return play.apply_action(table.pk, users[state.to_act], action, match.version).match


def belote_states(users):
    """A Belote table waiting, in its auction, in play, at a deal's end and at the match's end."""
    table = rows.create_table(users[0], "belote", {**OPTIONS, "deal_pause": 10}, is_private=True)
    yield "waiting", table
    for index, user in enumerate(users[:4]):
        seating.take_seat(table.pk, user, index)
    matches.start_match(table.pk, users[0])
    yield "auction", table
    for _ in range(6):
        belote_move(table, users)
    yield "play", table
    while not matches.pause_active(match_of(table)):
        belote_move(table, users)
    yield "deal end", table
    while match_of(table).status == Match.Status.RUNNING:
        if matches.pause_active(match_of(table)):
            for user in users[:4]:
                if matches.pause_active(match_of(table)):
                    matches.ready_for_next_deal(table.pk, user)
        else:
            belote_move(table, users)
    yield "match end", table


def grabush_states(users):
    """Grabush tables of 2, 4 and 8 players, and a table-talk penalty to claim."""
    for count in (2, 4, 8):
        options = {"players": count, "stock_size": 20, "table_talk_penalty": True}
        table = rows.create_table(users[0], "grabush", options, is_private=True)
        for index, user in enumerate(users[:count]):
            seating.take_seat(table.pk, user, index)
        matches.start_match(table.pk, users[0])
        yield f"{count} players", table
    play.apply_chat_rule(table.pk, users[0])
    yield "penalty", table


def pages(client: Client, users, language: str) -> list[tuple[str, str]]:
    """Every page of the site as a visitor and as a player sees it, in ``language``."""
    shown = []
    for path in ("/", "/accounts/login/", "/signup/", "/accounts/password_reset/"):
        shown.append((path, client.get(path, HTTP_ACCEPT_LANGUAGE=language)))
    client.force_login(users[0])
    match = Match.objects.filter(status=Match.Status.FINISHED).first()
    for path in (
        "/",
        "/rules/belote/",
        "/rules/grabush/",
        "/leaderboard/",
        f"/leaderboard/{match.game}/",
        f"/u/{users[0].username}/",
        f"/m/{match.pk}/",
        f"/m/{match.pk}/replay/?step=20",
    ):
        shown.append((path, client.get(path, HTTP_ACCEPT_LANGUAGE=language)))
    return [(path, response.content.decode()) for path, response in shown]


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_no_english_is_left_on_any_page_or_table_state(client, language):
    users = players(9)
    names = tuple(user.username for user in users)
    found = {}
    states = [(f"belote {label}", table) for label, table in belote_states(users)]
    states += [(f"grabush {label}", table) for label, table in grabush_states(users)]
    for label, table in states:
        for viewer in (users[0], users[8]):  # a player and a spectator
            with translation.override(language):
                html = render_frame(table, viewer, full=True)
            found[f"{label} ({viewer.username})"] = html
    for path, html in pages(client, users, language):
        found[path] = html
    problems = {}
    for where, html in found.items():
        left = english_words(html, names) + untranslated(html, language)
        if left:
            problems[where] = sorted(set(left))
    assert problems == {}


@pytest.mark.parametrize(
    ("language", "when", "short", "since", "seats", "picked"),
    [
        (
            "bg",
            "3 декември 2026 г., 19:38",
            "03.12.2026 19:38",
            "Играе от 3 декември 2026 г.",
            "Места 2, 4, 6 и 8",
            "изигра дама пика",
        ),
        (
            "ru",
            "3 декабря 2026 г. 19:38",
            "03.12.2026 19:38",
            "Играет с 3 декабря 2026 г.",
            "Места 2, 4, 6 и 8",
            "кладёт даму пик",
        ),
    ],
)
def test_dates_joiners_and_card_cases_are_what_a_native_speaker_writes(
    language, when, short, since, seats, picked
):
    """Dates in the language's own order and month case (not Django's American fallback for
    Bulgarian), the year's abbreviation not doubled, seats joined by the language's "and" (not
    a "&" joined in code), and a card played named in the case the sentence needs."""

    moment = datetime.datetime(2026, 12, 3, 19, 38, tzinfo=datetime.UTC)
    page = Template(
        '{% load i18n %}{{ d|date:"DATETIME_FORMAT" }}|{{ d|date:"SHORT_DATETIME_FORMAT" }}|'
        '{% blocktranslate with date=d|date:"DATE_FORMAT" %}Playing since {{ date }}.'
        "{% endblocktranslate %}"
    )
    with translation.override(language):
        assert page.render(Context({"d": moment})).split("|") == [when, short, since]
        assert grabush.side_label(8, 1) == seats
        assert side_label([0, 2]) == seats.replace("2, 4, 6 и 8", "1 и 3")
        assert grabush.describe("centre:hand:QS:0").startswith(picked)


@pytest.mark.parametrize(
    ("language", "pair", "one", "two"),
    [
        ("en", "ana & ben", "Waiting for ana to click", "Waiting for ana, ben to click"),
        ("bg", "ana и ben", "Чакаме ana да натисне", "Чакаме ana, ben да натиснат"),
        ("ru", "ana и ben", "нажмут «Следующая раздача»: ana.", "«Следующая раздача»: ana, ben."),
    ],
)
def test_a_pair_is_joined_and_one_waiting_player_is_spoken_of_in_the_language(
    language, pair, one, two
):
    """The players of a pair are joined by the language's word, not a "&" joined in code; a
    single player waited for takes a singular verb."""
    from games.events.results import pair_name
    from games.models import EventPair

    user = get_user_model()
    registered = EventPair(player=user(username="ana"), partner=user(username="ben"))
    page = Template('{% include "games/belote/my_area.html" %}')
    pause = DealPause(0, ())
    with translation.override(language):
        assert pair_name(registered) == pair
        for waiting, said in ((["ana"], one), (["ana", "ben"], two)):
            context = {"pause": pause, "last_deal": {"number": 1}, "waiting_for": waiting}
            assert said in page.render(Context(context))
