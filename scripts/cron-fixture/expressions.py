"""Cron expressions for generate.py: random well-formed ones, random malformed ones, and hand-picked edge cases."""

from __future__ import annotations

import random

MONTHS = "JAN FEB MAR APR MAY JUN JUL AUG SEP OCT NOV DEC".split()
DAYS = "SUN MON TUE WED THU FRI SAT".split()


def cased(rng: random.Random, name: str) -> str:
    """A name in upper, lower or mixed case (the reference upper-cases the expression)."""
    return rng.choice([name, name.lower(), name.capitalize()])


def number(rng: random.Random, low: int, high: int) -> str:
    value = rng.randint(low, high)
    return f"0{value}" if value < 10 and rng.random() < 0.05 else str(value)


def numeric_term(rng: random.Random, low: int, high: int, value=None) -> str:
    """`*`, n, a-b, */s, a-b/s or a/s over [low, high]; `value` draws one value (names allowed)."""
    value = value or (lambda: number(rng, low, high))
    kind = rng.choices(["star", "one", "range", "star_step", "range_step", "from_step"], [2, 4, 3, 3, 2, 2])[0]
    step = str(rng.choice([1, 2, 3, 4, 5, 6, 7, 10, 12, 15, 20, 30, 45, 90]))
    if kind == "star":
        return "*"
    if kind == "one":
        return value()
    if kind == "star_step":
        return f"*/{step}"
    a = rng.randint(low, high)
    b = rng.randint(a, min(high, a + rng.choice([0, 1, 3, 8, 30])))
    if kind == "from_step":
        return f"{a}/{step}"
    text = f"{a}-{b}"
    return f"{text}/{step}" if kind == "range_step" else text


def field(rng: random.Random, terms, star_weight: float) -> str:
    if rng.random() < star_weight:
        return "*" if rng.random() < 0.85 else rng.choice(["*/1", "*/2", "*/5"])
    count = rng.choices([1, 2, 3], [6, 3, 1])[0]
    return ",".join(terms() for _ in range(count))


def minute(rng: random.Random) -> str:
    return field(rng, lambda: numeric_term(rng, 0, 59), 0.25)


def hour(rng: random.Random) -> str:
    return field(rng, lambda: numeric_term(rng, 0, 23), 0.3)


def day_of_month(rng: random.Random) -> str:
    def term() -> str:
        special = rng.random()
        if special < 0.08:
            return "L"
        if special < 0.14:
            return "LW"
        if special < 0.16:
            return rng.choice(["L/2", "LW/3"])
        return numeric_term(rng, 1, 31)

    return field(rng, term, 0.5)


def month(rng: random.Random) -> str:
    def name() -> str:
        return cased(rng, rng.choice(MONTHS)) if rng.random() < 0.4 else number(rng, 1, 12)

    def term() -> str:
        if rng.random() < 0.2:
            a, b = sorted(rng.sample(range(12), 2))
            return f"{cased(rng, MONTHS[a])}-{cased(rng, MONTHS[b])}"
        return numeric_term(rng, 1, 12, name)

    return field(rng, term, 0.6)


def day_of_week(rng: random.Random) -> str:
    def name() -> str:
        return cased(rng, rng.choice(DAYS)) if rng.random() < 0.4 else number(rng, 0, 7)

    def term() -> str:
        special = rng.random()
        if special < 0.12:
            return f"{rng.randint(0, 7)}L"
        if special < 0.26:
            return f"{name()}#{rng.randint(1, 5)}"
        if special < 0.34:
            a, b = sorted(rng.sample(range(7), 2))
            return f"{cased(rng, DAYS[a])}-{cased(rng, DAYS[b])}"
        return numeric_term(rng, 0, 7, name)

    return field(rng, term, 0.55)


def joined(rng: random.Random, fields: list[str]) -> str:
    """Fields joined by a space, sometimes by several spaces or a tab, sometimes padded."""
    sep = rng.choices([" ", "  ", "\t"], [20, 1, 1])[0]
    text = sep.join(fields)
    return f" {text} " if rng.random() < 0.02 else text


def random_expression(rng: random.Random) -> str:
    return joined(rng, [minute(rng), hour(rng), day_of_month(rng), month(rng), day_of_week(rng)])


BAD_TOKENS = [
    "60", "24", "0", "32", "13", "8", "5-1", "1-2-3", "*-5", "*/0", "*/", "/5", "?", "H", "H/5", "1.5", "+1", "-1",
    "1,,2", ",1", "FRIL", "MON#6", "1#0", "1#", "#1", "5W", "LW5", "L5", "JANUARY", "MONDAY", "\u0663", "1/2/3",
    "2L-3", "L-5", "W", "1#2#3", "*/5/2", "x", "JAN#2", "LW/0", "",
]


def malformed(rng: random.Random) -> str:
    """A random expression broken in one field, or with the wrong number of fields."""
    fields = random_expression(rng).split()
    roll = rng.random()
    if roll < 0.1:
        return " ".join(fields[: rng.randint(0, 4)])
    if roll < 0.2:
        return " ".join(fields + ["0"] * rng.randint(1, 2))
    position = rng.randrange(5)
    token = rng.choice(BAD_TOKENS)
    fields[position] = token if rng.random() < 0.7 or not token else f"{fields[position]},{token}"
    return " ".join(fields)


def dst_cases() -> list[tuple[str, str, str]]:
    """(expression, zone, start) around DST changes: the daylight-saving rules of docs/checks.md, "Cron in detail", and their edges."""
    return [
        ("0 3 * * *", "Europe/Riga", "2021-03-27T12:00:00.000Z"),
        ("30 1,2,3,4,5 * * *", "Europe/Riga", "2021-10-30T21:00:00.000Z"),
        ("0 * * * *", "Europe/Riga", "2021-10-30T23:30:00.000Z"),
        ("30 3 * * *", "Europe/Riga", "2021-10-31T01:10:00.000Z"),
        ("*/20 3 * * *", "Europe/Riga", "2021-10-31T00:50:00.000Z"),
        ("30 2 * * *", "America/New_York", "2024-03-09T12:00:00.000Z"),
        ("30 1 * * *", "America/New_York", "2024-11-03T05:40:00.000Z"),
        ("30 1 * * *", "America/New_York", "2024-11-03T06:10:00.000Z"),
        ("*/30 * * * *", "Australia/Lord_Howe", "2024-04-06T14:10:00.000Z"),
        ("*/30 * * * *", "Australia/Lord_Howe", "2024-10-05T15:10:00.000Z"),
        ("0 2 * * *", "Australia/Lord_Howe", "2024-10-05T12:00:00.000Z"),
        ("0 0 * * *", "America/Santiago", "2018-08-11T12:00:00.000Z"),
        ("15 0 * * *", "America/Havana", "2024-03-09T12:00:00.000Z"),
        ("45 2 * * *", "Pacific/Chatham", "2024-09-28T10:00:00.000Z"),
    ]


def handpicked() -> list[str]:
    """Edge cases: DST examples of docs/checks.md, "Cron in detail", never-matching and rare expressions."""
    return [
        "0 3 * * *",
        "30 1,2,3,4,5 * * *",
        "0 * * * *",
        "*/15 * * * *",
        "0 */3 * * *",
        "30 2 * * *",
        "0 0 * * *",
        "0 1 * * *",
        "0 2 * * 0",
        "15 0 * * *",
        "45 1 * * *",
        "0,30 * * * *",
        "30 * * * *",
        "0 0 30 2 *",
        "0 0 31 4,6,9,11 *",
        "0 0 30,31 2 *",
        "0 0 29 2 *",
        "0 0 29 2 1",
        "0 0 * 2 1#5",
        "0 0 */20 * 1#5",
        "0 0 L 2 *",
        "0 0 LW * *",
        "0 0 L * 5L",
        "0 0 1 * 7",
        "0 0 * * 1-5",
        "0 0 * * 5-7",
        "0 0 5-5/3 * *",
        "0 0 * * 7/2",
        "0 0 */10 * */3",
        "59 23 31 12 7",
        "0 0 1 jan,Feb,MAR-apr,dec *",
        "0 0 * * sun,Mon,TUE-fri,SAT",
        "0 0 1 FEB/3 MON/2",
        "0 0 * * 5L,0L,7L,1#1,MON#5,7#2",
    ]
