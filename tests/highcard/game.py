"""High card's entry in the site's catalog: its bot, presenter, options form and templates."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from django import forms

from games.catalog import Game
from games.presenters import Region

from . import engine

TEMPLATES = Path(__file__).parent / "templates"


def lowest(view: dict[str, Any], rng: random.Random, budget: float) -> str:
    """The computer player: its lowest card."""
    return min(view["hand"], key=lambda card: engine.RANKS.index(card[0]))


class Presenter:
    """What high card's board shows."""

    REGIONS = (Region("games/highcard/board.html"),)

    @staticmethod
    def describe(action: str) -> str:
        return f"plays {action}"

    @staticmethod
    def announce(view, last, names, side) -> list[str]:
        said = [f"{names.get(last['seat'], '')} plays {last['action']}."]
        if view["led"] is None and view["to_act"] is not None:
            said.append(f"{names.get(view['to_act'], '')} wins the round.")
        if view["over"]:
            said.append(f"Points: {view['scores'][0]} to {view['scores'][1]}.")
        return said

    @staticmethod
    def side_of(viewer) -> None:
        return None

    @staticmethod
    def side_context(view, seats, viewer) -> dict[str, Any]:
        return {}

    @staticmethod
    def board_context(view, seats, viewer, selected="", side=None) -> dict[str, Any]:
        names = {seat["index"]: seat["name"] for seat in seats}
        return {
            "my_turn": viewer is not None and view["to_act"] == viewer,
            "to_act_name": names.get(view["to_act"], "") if view["to_act"] is not None else "",
            "we_won": viewer is not None and view["winner"] == viewer,
            "names": names,
        }


class OptionsForm(forms.Form):
    rounds = forms.TypedChoiceField(choices=[(3, "3"), (1, "1")], coerce=int, initial=3)


GAME = Game(
    name="highcard",
    label="High card",
    engine=engine,
    bots={"easy": lowest},
    presenter=Presenter,
    options_form=OptionsForm,
    cover_level="easy",
    seats=2,
)
