"""Bulgarian dates as Bulgarians write them: "3 декември 2026 г., 19:38" and "03.12.2026 19:38"
(Django has no date-and-time formats for Bulgarian and falls back to the American ones)."""

DATE_FORMAT = "j E Y г."
DATETIME_FORMAT = "j E Y г., H:i"
SHORT_DATE_FORMAT = "d.m.Y"
SHORT_DATETIME_FORMAT = "d.m.Y H:i"
MONTH_DAY_FORMAT = "j E"
YEAR_MONTH_FORMAT = "E Y г."
