"""OnCalendar expressions for generate.py: random well-formed ones, random malformed ones, and hand-picked cases."""

from __future__ import annotations

import random

DAYS = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()
SHORTHANDS = "minutely hourly daily weekly monthly quarterly semiannually yearly annually".split()
SUFFIX_ZONES = [
    "UTC", "Europe/Riga", "America/New_York", "Asia/Tokyo", "Australia/Lord_Howe", "US/Eastern", "EST",
    "Etc/GMT-14", "Pacific/Chatham", "America/Santiago",
]
NOT_ZONES = ["europe/riga", "Mars/Olympus", "Riga", "GMT+2", "utc", "Europe"]
STEPS = [1, 2, 3, 4, 5, 6, 7, 10, 12, 15, 20, 30, 45, 90]


def cased(rng: random.Random, name: str) -> str:
    """A name in upper, lower or mixed case (the reference upper-cases weekday names)."""
    return rng.choice([name, name.lower(), name.upper(), name.capitalize()])


def number(rng: random.Random, low: int, high: int, pad: float = 0.3) -> str:
    value = rng.randint(low, high)
    return f"{value:02d}" if rng.random() < pad else str(value)


def term(rng: random.Random, low: int, high: int, value=None) -> str:
    """n, a..b, a/s, a..b/s over [low, high]; `value` draws one value."""
    value = value or (lambda: number(rng, low, high))
    kind = rng.choices(["one", "range", "from_step", "range_step"], [6, 3, 2, 2])[0]
    if kind == "one":
        return value()
    step = str(rng.choice(STEPS))
    if kind == "from_step":
        return f"{value()}/{step}"
    a = rng.randint(low, high)
    b = rng.randint(a, min(high, a + rng.choice([0, 1, 3, 8, 30])))
    text = f"{a}..{b}"
    return f"{text}/{step}" if kind == "range_step" else text


def component(rng: random.Random, low: int, high: int, star: float, value=None) -> str:
    if rng.random() < star:
        return "*"
    count = rng.choices([1, 2, 3], [6, 3, 1])[0]
    return ",".join(term(rng, low, high, value) for _ in range(count))


def weekdays(rng: random.Random) -> str:
    def name() -> str:
        day = rng.choice(DAYS)
        return cased(rng, day if rng.random() < 0.2 else day[:3])

    def one() -> str:
        if rng.random() < 0.4:
            a, b = sorted(rng.sample(range(7), 2))
            sep = rng.choice(["..", "..", "-"])
            return f"{cased(rng, DAYS[a][:3])}{sep}{cased(rng, DAYS[b][:3])}"
        return name()

    text = ",".join(one() for _ in range(rng.choices([1, 2, 3], [6, 3, 1])[0]))
    return text + "," if rng.random() < 0.05 else text


def year(rng: random.Random) -> str:
    def value() -> str:
        roll = rng.random()
        if roll < 0.15:
            return f"{rng.randint(0, 40):02d}"
        if roll < 0.2:
            return str(rng.choice([1970, 1999, 2199, 2150]))
        return str(rng.randint(2000, 2040))

    return component(rng, 2000, 2040, 0.6, value)


def last_days(rng: random.Random) -> str:
    """The `~` part: days counted from the month's end."""
    roll = rng.random()
    if roll < 0.5:
        return str(rng.randint(1, 7) if rng.random() < 0.8 else rng.randint(1, 28))
    if roll < 0.7:
        a = rng.randint(1, 5)
        return f"{a}..{a + rng.randint(0, 4)}"
    if roll < 0.85:
        return f"{rng.randint(1, 10)}/{rng.choice([1, 2, 3, 7])}"
    return f"{rng.randint(1, 3)},{rng.randint(4, 9)}"


def date(rng: random.Random) -> str:
    month = component(rng, 1, 12, 0.5)
    if rng.random() < 0.15:
        text = f"{month}~{last_days(rng)}"
    else:
        text = f"{month}-{component(rng, 1, 31, 0.5)}"
    return f"{year(rng)}-{text}" if rng.random() < 0.6 else text


def time(rng: random.Random) -> str:
    hour = component(rng, 0, 23, 0.25)
    minute = component(rng, 0, 59, 0.2)
    if rng.random() < 0.5:
        return f"{hour}:{minute}"
    return f"{hour}:{minute}:{component(rng, 0, 59, 0.15)}"


def joined(rng: random.Random, parts: list[str]) -> str:
    sep = rng.choices([" ", "  ", "\t"], [20, 1, 1])[0]
    return sep.join(parts)


def single(rng: random.Random) -> str:
    """One expression: a shorthand, or weekdays, date and time each present or not; sometimes a zone suffix."""
    if rng.random() < 0.08:
        text = cased(rng, rng.choice(SHORTHANDS))
    else:
        parts = []
        if rng.random() < 0.4:
            parts.append(weekdays(rng))
        if rng.random() < 0.65:
            parts.append(date(rng))
        if rng.random() < 0.85 or not parts:
            parts.append(time(rng))
        text = joined(rng, parts)
    if rng.random() < 0.12:
        text += " " + rng.choice(SUFFIX_ZONES if rng.random() < 0.85 else NOT_ZONES)
    return text


def random_expression(rng: random.Random) -> str:
    """One to three expressions, one per line (sometimes with CR LF, padding or blank lines around)."""
    count = rng.choices([1, 2, 3], [12, 2, 1])[0]
    text = rng.choice(["\n", "\n", "\r\n"]).join(single(rng) for _ in range(count))
    return f" {text}\n" if rng.random() < 0.03 else text


BAD_TOKENS = [
    "24:00", "12:60", "12:00:60", "*-13-01", "*-*-32", "*-*-00", "Mon..Sun..Tue", "Mo", "Monday..", "1..", "..5",
    "5..1", "*/0", "*/2", "1/0", "1/", "/2", "1,,2", ",", "12:00:00:00", "12", "12:", ":30", "1-2-3-4", "*-*~29",
    "*-*~0", "~", "1.5", "+1", "-1", "\u0663", "1_000", "2200-01-01", "1969-01-01", "*", "Fri..Mon", "Mon/2",
    "*:*:*.5", "05:40:23.42", "2003-02-30", "*-02-30", "1999-*-*", "Mon,,Tue", "Mon~Fri", "12:~30", "0x10", "",
]


def malformed(rng: random.Random) -> str:
    """A random expression with one part replaced, added or removed, or with a blank line."""
    parts = single(rng).split()
    roll = rng.random()
    if roll < 0.1:
        return "\n".join([single(rng), "", single(rng)])
    if roll < 0.2:
        return " ".join(parts + [rng.choice(["12:00", "Mon", "*-*-*", "x"])])
    position = rng.randrange(len(parts))
    token = rng.choice(BAD_TOKENS)
    if rng.random() < 0.5 and token:
        parts.insert(position, token)
    else:
        parts[position] = token
    return " ".join(parts)


def handpicked() -> list[str]:
    """The examples of systemd.time(7) and the reference's README, and edges of each part."""
    return [
        "Sat,Thu,Mon..Wed,Sat..Sun", "Mon,Sun 12-*-* 2,1:23", "Wed *-1", "Wed..Wed,Wed *-1", "Wed, 17:48",
        "Wed..Sat,Tue 12-10-15 1:2:3", "*-*-7 0:0:0", "10-15", "monday *-12-* 17:00", "Mon,Fri *-*-3,1,2 *:30:45",
        "12,14,13,12:20,10,30", "12..14:10,20,30", "mon,fri *-1/2-1,3 *:30:45", "03-05 08:05:40", "08:05:40",
        "05:40", "Sat,Sun 12-05 08:05:40", "Sat,Sun 08:05:40", "2003-03-05 05:40", "05:40:23.4200004",
        "2003-02..04-05", "2003-03-05 05:40 UTC", "2003-03-05", "03-05", "hourly", "daily", "daily UTC", "monthly",
        "weekly", "weekly Pacific/Auckland", "yearly", "annually", "quarterly", "semiannually", "minutely",
        "Minutely", "DAILY", "*:2/3", "*-*-*", "*-*~1", "*-*~1,3", "*-*~1..3", "*-02~03", "Mon *-05~07/1",
        "Tue..Sat *-*~1/4", "*-*~28", "*-*~29", "Mon..Fri *-*-* 09:00", "12:34", "Mon-Fri 9:00",
        "Monday..Friday 09:00", "2199-12-31 23:59:59", "2200-01-01", "1970-01-01", "99-01-01", "69-01-01",
        "*-02-29 12:00", "Mon *-02-29", "*-02-30", "*-04-31", "2001-01-01", "2000-01-01 00:00:00",
        "2000-01-01 00:00:01", "*:*:*", "*:*", "*:0/1:0/1", "0/1:0/1", "*-*-* *:*:59", "Sun *-*-* 23:59:59",
        "Mon *-*-1..7 03:00", "*-1/3-1 00:00", "2024/2-01-01", "00/25-01-01", "*-*-1/10", "*-*-31/2",
        "12:00 Asia/Tokyo\n13:00", "Mon 12:00\nTue 13:00\nWed 14:00", "09:00\r\n17:00", "\n09:00\n", "09:00\n\n17:00",
        "9:00 Europe/Riga\n9:00 America/New_York", "daily\nweekly", "12:00 Europe", "12:00 Factory", "12:00\tUTC",
        "12:00  UTC", "12:00 europe/riga", "UTC", "12:00 UTC UTC", "Mon UTC", "0 0 * * * *", "* * * *",
        "* * * * * *", "", " ", "\n", "1 2 3 4 5 6", "sunday", "SUN", "Sun,", "Sun,,", "~", "Mon *-*-* 12:00 EST",
        "*-*-* 02:30 US/Eastern", "12:00 Etc/GMT+12", "1..31:00",
    ]


def dst_cases() -> list[tuple[str, str, str]]:
    """(expression, zone, start) around DST changes: gaps skipped, repeated wall times at their first pass."""
    return [
        ("*-*-* 02:30", "America/New_York", "2024-03-09T12:00:00.000Z"),
        ("*-*-* 01:30", "America/New_York", "2024-11-03T05:40:00.000Z"),
        ("*-*-* 01:30", "America/New_York", "2024-11-03T06:10:00.000Z"),
        ("*:*:00", "Europe/Riga", "2021-10-31T01:10:00.000Z"),
        ("hourly", "Europe/Riga", "2021-10-30T23:30:00.000Z"),
        ("*-*-* 03:30", "Europe/Riga", "2021-10-31T01:10:00.000Z"),
        ("*-*-* 03:00:00", "Europe/Riga", "2021-03-27T12:00:00.000Z"),
        ("*:0/15", "Australia/Lord_Howe", "2024-04-06T14:10:00.000Z"),
        ("*:0/15", "Australia/Lord_Howe", "2024-10-05T15:10:00.000Z"),
        ("*-*-* 02:10", "Australia/Lord_Howe", "2024-10-05T12:00:00.000Z"),
        ("daily", "America/Santiago", "2018-08-11T12:00:00.000Z"),
        ("*-*-* 00:15", "America/Havana", "2024-03-09T12:00:00.000Z"),
        ("*-*-* 02:45", "Pacific/Chatham", "2024-09-28T10:00:00.000Z"),
        ("*-*-* 03:30 Europe/Riga", "UTC", "2021-10-31T00:10:00.000Z"),
        ("*-*-* 02:30:30\n*-*-* 03:00 Europe/Riga", "America/New_York", "2024-03-09T12:00:00.000Z"),
        ("*:*:*", "Europe/London", "2024-10-27T01:30:00.500Z"),
    ]
