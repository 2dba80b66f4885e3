"""Writes test/fixtures/cron-cronsim.json: random cron expressions with cronsim's answers.

The reference (Healthchecks) evaluates cron schedules with cronsim; our engine
(shared/domain/cron*.ts, schedule.ts) reimplements it. This script draws about
3,000 expressions that use every syntax the engine accepts (lists, ranges, steps,
month and day names in any case, L, LW, nL, n#k, 0 and 7 for Sunday, both sides
of the Vixie day-of-month/day-of-week rule) plus malformed ones, pairs each valid
one with a time zone (DST zones included) and a start time (a third of them within
hours of a DST change), and records what cronsim answers:

- ``valid``: whether Healthchecks accepts the expression: five fields, cronsim
  parses it and finds a match from 2000-01-01 (hc/front/validators.py).
- ``next``: the next three matches, each found as Healthchecks finds a check's
  next ping: ``next(CronSim(expr, previous.astimezone(ZoneInfo(tz))))``, in UTC.
  An entry is null when cronsim finds no match within 50 years. When cronsim
  answers a moment that is not after the start (it does for a start in the
  second pass of a repeated wall hour), the entry is
  ``{"cronsim": <that answer>, "after": <its next answer after the start>}``.

test/shared/domain/cron-fixture.test.ts runs our engine over every case.

Usage (cronsim and tzdata pinned in requirements.txt; the zone data is the tzdata
package's, matching moment-timezone's 2026f, not the system's):

    python3 -m venv /tmp/cronsim-venv
    /tmp/cronsim-venv/bin/pip install -r scripts/cron-fixture/requirements.txt
    /tmp/cronsim-venv/bin/python scripts/cron-fixture/generate.py > test/fixtures/cron-cronsim.json

The output is the same for the same seed and package versions.
"""

from __future__ import annotations

import json
import random
import sys
import zoneinfo
from datetime import datetime, timedelta, timezone
from importlib.metadata import version

from cronsim import CronSim
from expressions import dst_cases, handpicked, malformed, random_expression

# Zone data from the pinned tzdata package only, never the system's.
zoneinfo.reset_tzpath(to=[])

SEED = 8
RANDOM_CASES = 2700
MALFORMED_CASES = 250
MATCHES = 3
UTC = timezone.utc

ZONES = [
    "UTC",
    "Europe/Riga",
    "America/New_York",
    "Australia/Lord_Howe",
    "Europe/London",
    "America/Santiago",
    "America/Havana",
    "Pacific/Chatham",
    "America/St_Johns",
    "Asia/Kolkata",
    "Asia/Kathmandu",
    "Pacific/Auckland",
    "Australia/Adelaide",
    "Europe/Berlin",
]

FIRST_YEAR = 2012
LAST_YEAR = 2034


def iso(dt: datetime, with_ms: bool = False) -> str:
    text = dt.astimezone(UTC).isoformat(timespec="milliseconds" if with_ms else "seconds")
    return text.replace("+00:00", "Z")


def accepted(expr: str) -> bool:
    """Healthchecks' cron validator: five fields, and cronsim finds a match from 2000-01-01."""
    if len(expr.split()) != 5:
        return False
    try:
        next(CronSim(expr, datetime(2000, 1, 1)))
    except Exception:
        return False
    return True


_transitions: dict[tuple[str, int], list[datetime]] = {}


def transitions(tz: str, year: int) -> list[datetime]:
    """Instants (UTC) in `year` where the zone's UTC offset changes."""
    key = (tz, year)
    if key not in _transitions:
        zone = zoneinfo.ZoneInfo(tz)
        found = []
        at = datetime(year, 1, 1, tzinfo=UTC)
        offset = at.astimezone(zone).utcoffset()
        while at.year == year:
            step = at + timedelta(minutes=15)
            step_offset = step.astimezone(zone).utcoffset()
            if step_offset != offset:
                found.append(step)
                offset = step_offset
            at = step
        _transitions[key] = found
    return _transitions[key]


def random_start(rng: random.Random, tz: str) -> datetime:
    """A start with milliseconds: uniform over the years, or within 3 hours of a DST change."""
    year = rng.randint(FIRST_YEAR, LAST_YEAR)
    changes = transitions(tz, year)
    if changes and rng.random() < 0.5:
        base = rng.choice(changes)
        return base + timedelta(milliseconds=rng.randint(-3 * 3600_000, 3 * 3600_000))
    base = datetime(year, 1, 1, tzinfo=UTC)
    return base + timedelta(milliseconds=rng.randint(0, 365 * 86400_000))


def next_matches(expr: str, tz: str, start: datetime) -> list:
    zone = zoneinfo.ZoneInfo(tz)
    out: list = []
    after = start
    for _ in range(MATCHES):
        it = CronSim(expr, after.astimezone(zone))
        try:
            first = next(it).astimezone(UTC)
            answer = first
            while answer <= after:
                answer = next(it).astimezone(UTC)
        except StopIteration:
            out.append(None)
            break
        out.append(iso(first) if first == answer else {"cronsim": iso(first), "after": iso(answer)})
        after = answer
    return out


def case(rng: random.Random, expr: str, tz: str | None = None, start: datetime | None = None) -> dict:
    if not accepted(expr):
        return {"expr": expr, "valid": False}
    tz = tz or rng.choice(ZONES)
    start = start or random_start(rng, tz)
    return {"expr": expr, "tz": tz, "start": iso(start, with_ms=True), "next": next_matches(expr, tz, start)}


def main() -> None:
    rng = random.Random(SEED)
    exprs = handpicked()
    exprs += [random_expression(rng) for _ in range(RANDOM_CASES)]
    exprs += [malformed(rng) for _ in range(MALFORMED_CASES)]
    cases = [case(rng, expr, tz, datetime.fromisoformat(start)) for expr, tz, start in dst_cases()]
    cases += [case(rng, expr) for expr in exprs]
    header = {
        "generator": "scripts/cron-fixture/generate.py",
        "seed": SEED,
        "cronsim": version("cronsim"),
        "tzdata": version("tzdata"),
    }
    # One case per line, so a regenerated fixture diffs readably.
    lines = ",\n".join(json.dumps(c, separators=(",", ":")) for c in cases)
    sys.stdout.write(json.dumps(header, separators=(",", ":"))[:-1] + ',"cases":[\n' + lines + "\n]}\n")


if __name__ == "__main__":
    main()
