"""coop-lint devices: what is connected, which target profiles exist, and capturing a new one."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..devices.live import profile_from_dawn, query_all
from ..devices.profiles import PROJECT_PROFILES, available_profiles

EXIT_CLEAN, EXIT_ERROR = 0, 2


def devices_command(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="coop-lint devices",
                                     description="Show the connected adapter and the target device profiles.")
    parser.add_argument("--save", metavar="NAME", help=f"capture the connected adapter as profile NAME in "
                                                       f"{PROJECT_PROFILES}/")
    parser.add_argument("--json", action="store_true", help="print everything as JSON")
    parser.add_argument("--no-query", action="store_true", help="list the profiles only; query no adapter")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0)

    profiles, problems = available_profiles(Path.cwd())
    queries = {} if args.no_query else query_all()
    adapters = {} if args.no_query else _adapters()
    if args.save:
        dawn = queries.get("dawn")
        if dawn is None or dawn.problem is not None:
            reason = dawn.problem if dawn is not None else "no query was made"
            print(f"coop-lint: error: cannot capture a profile: {reason}", file=sys.stderr)
            return EXIT_ERROR
        profile = profile_from_dawn(dawn.data, args.save)
        path = Path.cwd() / PROJECT_PROFILES / f"{args.save}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(profile.to_json(), indent=2) + "\n")
        print(f"saved {path} ({len(profile.configs)} matrix configurations)")
    if args.json:
        print(json.dumps({
            "connected": {name: (q.data if q.problem is None else {"available": False, "reason": q.problem})
                          for name, q in queries.items()},
            "profiles": {name: p.to_json() for name, p in sorted(profiles.items())},
            "problems": problems,
            "adapters": adapters,
        }, indent=2, default=str))
        return EXIT_CLEAN
    if queries:
        print("Connected:")
        for name, query in queries.items():
            print(f"  {name:7} {_describe(name, query)}")
    if adapters:
        # Every adapter of the host with the identity `coop-lint tune` and `coop-lint worker` pick it by.
        print("Adapters (coop-lint tune runs on each; Vulkan device UUID or index):")
        for api, found in adapters.items():
            for a in found:
                identity = f"uuid:{a['uuid']}" if a["uuid"] else f"index:{a['index']}"
                print(f"  {api:7} {identity:40} {a['device']} ({a['backend']})")
    print("Targets (use with --target NAME or targets = [...] in the configuration):")
    for name, profile in sorted(profiles.items()):
        configs = ", ".join(sorted({f"{c.m}x{c.n}x{c.k}" for c in profile.configs})) or "no matrix support"
        print(f"  {name:14} {profile.origin:10} {profile.title}: {configs}")
    print("  connected      live       the adapter found now, through Dawn")
    for problem in problems:
        print(f"coop-lint: warning: {problem}", file=sys.stderr)
    return EXIT_CLEAN


def _adapters() -> dict:
    from ..runner.adapters import query_adapters

    found = query_adapters()
    return {} if isinstance(found, str) else {api: a for api, a in found.items() if a}


def _describe(name: str, query) -> str:
    if query.problem is not None:
        return f"unavailable: {query.problem}"
    data = query.data
    if name == "dawn":
        info = data.get("info", {})
        return (f"{info.get('device')} ({info.get('backend_type')}, {info.get('description')}), "
                f"{len(data.get('subgroup_matrix_configs', []))} subgroup matrix configurations")
    if name == "vulkan":
        parts = []
        for device in data.get("devices", []):
            parts.append(f"{device['name']}: {len(device['cooperative_matrix_khr'])} cooperative matrix "
                         f"configurations (KHR), {len(device['cooperative_matrix2_nv'])} flexible (NV)")
        return "; ".join(parts) or "no physical devices"
    info = data.get("info", {})
    return f"{info.get('device')} ({info.get('backend_type', '')}), {len(data.get('features', []))} features"
