"""Writes test/fixtures/oncalendar-reference.json: random OnCalendar schedules with the reference's answers.

The reference (Healthchecks) takes any schedule that is not one line of exactly five
fields as a systemd OnCalendar expression and evaluates it with the `oncalendar`
package; our engine (shared/domain/oncalendar*.ts, schedule.ts) reimplements it.
This script draws about 3,000 schedules that use every syntax the package accepts
(weekday names, lists and ranges; [year-]month-day and month~day with lists,
ranges and repetitions; hh:mm[:ss] likewise; shorthands in any case; zone
suffixes; several lines) plus malformed ones, pairs each valid one with a time
zone (DST zones included) and a start time (half of them within hours of a DST
change), and records what the package answers:

- ``valid``: whether Healthchecks accepts the schedule (hc/api/views.py
  ``Spec.check_schedule``): ``OnCalendar(expr, 2000-01-01 UTC)`` parses and finds
  an occurrence. ``crash`` names the exception when the package raises something
  other than OnCalendarError (the reference would answer 500; we answer 400).
- ``next``: the next three occurrences, each found as Healthchecks finds a check's
  next ping: ``next(OnCalendar(expr, previous.astimezone(ZoneInfo(tz))))``, in UTC.
  An entry is null when there is none (before 2200). When the package answers a
  moment that is not after the start (it does for a start in the second pass of a
  repeated wall hour), the entry is ``{"ref": <that answer>, "after": <its next
  answer after the start>}``.

Only schedules Healthchecks takes as OnCalendar are kept (``guess_kind``).
test/shared/domain/oncalendar-fixture.test.ts runs our engine over every case.

Usage (oncalendar and tzdata pinned in requirements.txt; the zone data is the
tzdata package's, matching moment-timezone's 2026f, not the system's):

    python3 -m venv /tmp/oncalendar-venv
    /tmp/oncalendar-venv/bin/pip install -r scripts/oncalendar-fixture/requirements.txt
    /tmp/oncalendar-venv/bin/python scripts/oncalendar-fixture/generate.py > test/fixtures/oncalendar-reference.json

The output is the same for the same seed and package versions.
"""

from __future__ import annotations

import json
import random
import sys
import zoneinfo
from datetime import datetime, timedelta, timezone
from importlib.metadata import version

from expressions import dst_cases, handpicked, malformed, random_expression
from oncalendar import OnCalendar, OnCalendarError

# Zone data from the pinned tzdata package only, never the system's.
zoneinfo.reset_tzpath(to=[])

SEED = 34
RANDOM_CASES = 2500
MALFORMED_CASES = 450
MATCHES = 3
UTC = timezone.utc
VALIDITY_FROM = datetime(2000, 1, 1, tzinfo=UTC)

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


def guess_kind(schedule: str) -> str:
    """hc/api/views.py: one line of exactly five fields is cron, anything else OnCalendar."""
    return "cron" if "\n" not in schedule.strip() and len(schedule.split()) == 5 else "oncalendar"


def accepted(expr: str) -> tuple[bool, str | None]:
    """Healthchecks' OnCalendar validator; the second item names an unexpected exception."""
    try:
        next(OnCalendar(expr, VALIDITY_FROM))
    except (OnCalendarError, StopIteration):
        return False, None
    except Exception as exc:  # the reference does not catch these: a 500 there
        return False, type(exc).__name__
    return True, None


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
        it = OnCalendar(expr, after.astimezone(zone))
        try:
            first = next(it).astimezone(UTC)
            answer = first
            while answer <= after:
                answer = next(it).astimezone(UTC)
        except StopIteration:
            out.append(None)
            break
        out.append(iso(first) if first == answer else {"ref": iso(first), "after": iso(answer)})
        after = answer
    return out


def case(rng: random.Random, expr: str, tz: str | None = None, start: datetime | None = None) -> dict:
    valid, crash = accepted(expr)
    if not valid:
        return {"expr": expr, "valid": False, **({"crash": crash} if crash else {})}
    tz = tz or rng.choice(ZONES)
    start = start or random_start(rng, tz)
    return {"expr": expr, "tz": tz, "start": iso(start, with_ms=True), "next": next_matches(expr, tz, start)}


def drawn(rng: random.Random, draw, count: int) -> list[str]:
    """`count` schedules from `draw` that Healthchecks takes as OnCalendar."""
    out: list[str] = []
    while len(out) < count:
        expr = draw(rng)
        if guess_kind(expr) == "oncalendar":
            out.append(expr)
    return out


def main() -> None:
    rng = random.Random(SEED)
    exprs = [e for e in handpicked() if guess_kind(e) == "oncalendar"]
    exprs += drawn(rng, random_expression, RANDOM_CASES)
    exprs += drawn(rng, malformed, MALFORMED_CASES)
    cases = [case(rng, expr, tz, datetime.fromisoformat(start)) for expr, tz, start in dst_cases()]
    cases += [case(rng, expr) for expr in exprs]
    header = {
        "generator": "scripts/oncalendar-fixture/generate.py",
        "seed": SEED,
        "oncalendar": version("oncalendar"),
        "tzdata": version("tzdata"),
    }
    # One case per line, so a regenerated fixture diffs readably.
    lines = ",\n".join(json.dumps(c, separators=(",", ":")) for c in cases)
    sys.stdout.write(json.dumps(header, separators=(",", ":"))[:-1] + ',"cases":[\n' + lines + "\n]}\n")


if __name__ == "__main__":
    main()
