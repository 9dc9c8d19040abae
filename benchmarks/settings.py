"""Settings for the benchmarks' commands: the site's, with this app installed.

The site itself (``cardroom.settings``, production included) never installs the benchmarks;
``manage.py`` picks these settings for ``bench`` and ``loadtest``. The servers and processes
the benchmarks start and measure run the site's own settings, in production mode.
"""

from cardroom.settings import *  # noqa: F403
from cardroom.settings import INSTALLED_APPS

INSTALLED_APPS = [*INSTALLED_APPS, "benchmarks"]
