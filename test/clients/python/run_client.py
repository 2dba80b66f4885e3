"""Drives the PyPI package healthchecks-io, unchanged, against a live hc-monitor.

Runs every Management API call and ping helper of the package (sync Client or
AsyncClient, plus CheckTrap) in one scenario, and prints one JSON object per
step on stdout, so the mocha test (test/clients/python-client.test.ts) can
assert on what the client saw. The first failing step ends the run with exit
status 1 and its traceback on stderr.

Usage: run_client.py --base-url URL --api-key KEY --read-key KEY --ping-key KEY
       --slug SLUG --ambiguous-slug SLUG --mode sync|async [--api-version N]
--slug names one check to ping by slug; --ambiguous-slug is shared by two.
Without --api-version the client keeps its default (it speaks /api/v1/).
"""

import argparse
import asyncio
import inspect
import json
import sys

import healthchecks_io as hc


def emit(step, **fields):
    """Prints one step's outcome as a JSON line."""
    print(json.dumps({"step": step, **fields}, default=str), flush=True)


async def call(fn, *args, **kwargs):
    """Calls a sync or async client method alike."""
    result = fn(*args, **kwargs)
    return await result if inspect.isawaitable(result) else result


async def expect_error(error_type, fn, *args, **kwargs):
    """Returns the name of the error the call raised; fails when it raised none or another."""
    try:
        await call(fn, *args, **kwargs)
    except error_type as err:
        return type(err).__name__
    raise AssertionError(f"{fn.__name__} did not raise {error_type.__name__}")


def brief(check):
    """The fields of a client Check worth comparing."""
    return check.model_dump(include={"name", "slug", "tags", "desc", "grace", "timeout", "status", "n_pings",
                                      "channels", "uuid", "unique_key", "update_url", "pause_url", "manual_resume"})


async def trap(client, mode, uuid, fail):
    """Runs a block inside CheckTrap: a start ping, then success (with the log lines) or fail."""
    check_trap = hc.CheckTrap(client, uuid=uuid, suppress_exceptions=True)
    if mode == "async":
        async with check_trap as t:
            t.add_log("trap line")
            if fail:
                raise RuntimeError("trap boom")
    else:
        with check_trap as t:
            t.add_log("trap line")
            if fail:
                raise RuntimeError("trap boom")


async def scenario(args, client, reader, stranger):
    channels = await call(client.get_integrations)
    emit("get_integrations", channels=[c.model_dump() for c in channels])

    new = hc.CheckCreate(name="Backup Job", tags="prod db", desc="nightly", timeout=3600, grace=120,
                         channels="*", unique=["name"])
    backup = await call(client.create_check, new)
    emit("create_check", check=brief(backup))
    again = await call(client.create_check, new)
    emit("create_check_upsert", check=brief(again))

    cron = await call(client.create_check, hc.CheckCreate(name="Cron Job", tags="prod", schedule="*/5 * * * *",
                                                          tz="Europe/Riga", grace=60))
    emit("create_check_cron", check=brief(cron))

    emit("get_checks", names=[c.name for c in await call(client.get_checks)])
    emit("get_checks_tag", names=[c.name for c in await call(client.get_checks, ["prod"])])
    emit("get_checks_tags", names=[c.name for c in await call(client.get_checks, ["prod", "db"])])
    emit("get_check", check=brief(await call(client.get_check, backup.uuid)))
    read_only = await call(reader.get_checks)
    emit("get_checks_read_only", checks=[brief(c) for c in read_only])
    by_key = next(c for c in read_only if c.name == "Backup Job").unique_key
    emit("get_check_unique_key", check=brief(await call(reader.get_check, by_key)))

    update = hc.CheckUpdate(desc="updated", grace=300, tags="prod db nightly", manual_resume=False)
    emit("update_check", check=brief(await call(client.update_check, backup.uuid, update)))

    emit("success_ping", result=await call(client.success_ping, uuid=backup.uuid, data="hello body"))
    emit("start_ping", result=await call(client.start_ping, uuid=backup.uuid))
    emit("get_check_started", check=brief(await call(client.get_check, backup.uuid)))
    emit("success_ping_slug", result=await call(client.success_ping, slug=args.slug, data="by slug"))
    emit("start_ping_slug", result=await call(client.start_ping, slug=args.slug))
    emit("exit_code_ping_slug", result=await call(client.exit_code_ping, 0, slug=args.slug))
    emit("fail_ping_slug", result=await call(client.fail_ping, slug=args.slug, data="slug failed"))
    emit("fail_ping", result=await call(client.fail_ping, uuid=backup.uuid, data="boom"))
    emit("get_check_down", check=brief(await call(client.get_check, backup.uuid)))
    emit("exit_code_ping", result=await call(client.exit_code_ping, 0, uuid=backup.uuid))
    emit("exit_code_ping_fail", result=await call(client.exit_code_ping, 3, uuid=backup.uuid, data="exit 3"))

    await trap(client, args.mode, backup.uuid, fail=False)
    emit("check_trap_success", check=brief(await call(client.get_check, backup.uuid)))
    await trap(client, args.mode, backup.uuid, fail=True)
    emit("check_trap_fail", check=brief(await call(client.get_check, backup.uuid)))

    pings = await call(client.get_check_pings, backup.uuid)
    emit("get_check_pings", pings=[p.model_dump(include={"type", "number_of_pings", "method", "user_agent",
                                                         "duration"}) for p in pings])
    flips = await call(client.get_check_flips, backup.uuid)
    emit("get_check_flips", ups=[f.up for f in flips])
    emit("get_check_flips_seconds", ups=[f.up for f in await call(client.get_check_flips, backup.uuid, seconds=3600)])
    emit("get_check_flips_start_end", ups=[f.up for f in await call(client.get_check_flips, backup.uuid,
                                                                     start=1, end=4102444800)])
    emit("get_check_flips_read_only", ups=[f.up for f in await call(reader.get_check_flips, by_key)])

    badges = await call(client.get_badges)
    emit("get_badges", tags=sorted(badges), star=badges["*"].model_dump())

    emit("pause_check", check=brief(await call(client.pause_check, cron.uuid)))
    emit("delete_check", check=brief(await call(client.delete_check, cron.uuid)))
    emit("get_check_deleted", error=await expect_error(hc.CheckNotFoundError, client.get_check, cron.uuid))
    emit("ping_deleted", error=await expect_error(hc.CheckNotFoundError, client.success_ping, uuid=cron.uuid))
    emit("wrong_api_key", error=await expect_error(hc.HCAPIAuthError, stranger.get_checks))
    emit("read_only_write", error=await expect_error(hc.HCAPIAuthError, reader.pause_check, backup.uuid))
    emit("non_unique_slug", error=await expect_error(hc.NonUniqueSlugError, client.success_ping,
                                                     slug=args.ambiguous_slug))
    emit("bad_flips_query", error=await expect_error(hc.BadAPIRequestError, client.get_check_flips, backup.uuid,
                                                     seconds=10 ** 12))
    emit("done", backup=backup.uuid, cron=cron.uuid)


async def main():
    parser = argparse.ArgumentParser()
    for name in ("--base-url", "--api-key", "--read-key", "--ping-key", "--slug", "--ambiguous-slug"):
        parser.add_argument(name, required=True)
    parser.add_argument("--mode", choices=("sync", "async"), required=True)
    parser.add_argument("--api-version", type=int)
    args = parser.parse_args()

    version = {} if args.api_version is None else {"api_version": args.api_version}
    urls = {"api_url": f"{args.base_url}/api/", "ping_url": f"{args.base_url}/ping/"}
    make = hc.AsyncClient if args.mode == "async" else hc.Client
    client = make(api_key=args.api_key, ping_key=args.ping_key, **urls, **version)
    reader = make(api_key=args.read_key, **urls, **version)
    stranger = make(api_key="x" * 32, **urls, **version)
    emit("client", version=hc.__version__, api_url=client._api_url)
    try:
        await scenario(args, client, reader, stranger)
    finally:
        for each in (client, reader, stranger):
            if args.mode == "async":
                await each._client.aclose()
            else:
                each._client.close()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except Exception:
        import traceback

        traceback.print_exc()
        sys.exit(1)
