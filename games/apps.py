from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    """The card room: rules engines, tables and players, live play."""

    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        from . import catalog
        from .catalog import belote, grabush
        from .events import daily, running
        from .live import database, sign_out
        from .people import signals
        from .tables import extensions

        catalog.register(belote.GAME)
        catalog.register(grabush.GAME)
        extensions.on_match_end(running.match_ended)
        extensions.on_match_end(daily.match_ended)
        extensions.on_connect_wake(running.tables_to_drive)
        signals.connect()
        sign_out.connect()
        database.connect()
