#!/usr/bin/env python3
"""The contract's benchmarks as ratios to their floors, measured in the same run:

    python3 scripts/contract-ratios.py [--quick]

- validate + card over the reference corpus, against the same inputs only read into
  serde_json::Value;
- parse + validate of blocks_50.yaml and of the golden document, against saphyr's raw event
  pass over the same text;
- the html sanitizer (ammonia) on html_100k.html, against html5ever's parse alone into a plain DOM.

A ratio of the same machine's two medians moves less with how fast or busy the machine is than a
time does, but on a machine busy with other work it still swings (by up to a third between runs):
measure twice, and compare code by instruction counts (callgrind) when the machine is not quiet.
Prints the medians and the ratios; `--quick` measures for less long. Run it with the workspace's
`RUSTFLAGS="--cfg erase_components"`: cargo gets this environment as it is, and with other flags
it would rebuild everything.
"""

import argparse
import json
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAIRS = [
    ("validate + card, whole corpus (one pass)", "read into serde_json::Value, whole corpus (one pass)"),
    ("parse+validate blocks_50.yaml", "saphyr events blocks_50.yaml"),
    ("parse+validate golden", "saphyr events golden"),
    ("sanitize html_100k.html", "html5ever parse html_100k.html"),
]
WITHOUT_FLOOR = ["answer check (choice accept)", "answer check (question set accept)"]


def medians():
    """Each benchmark's median in ns, by its name, from criterion's files."""
    found = {}
    base = os.path.join(ROOT, "target", "criterion")
    for folder in os.listdir(base):
        new = os.path.join(base, folder, "new")
        try:
            with open(os.path.join(new, "benchmark.json")) as file:
                name = json.load(file)["full_id"]
            with open(os.path.join(new, "estimates.json")) as file:
                found[name] = json.load(file)["median"]["point_estimate"]
        except (OSError, KeyError, ValueError):
            continue
    return found


def shown(ns):
    return f"{ns / 1e6:.3f} ms" if ns >= 1e6 else f"{ns / 1e3:.1f} µs" if ns >= 1e3 else f"{ns:.1f} ns"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1 s of measuring per benchmark instead of 5")
    args = parser.parse_args()
    timing = ["--warm-up-time", "1", "--measurement-time", "1"] if args.quick else []
    for bench in ("asks", "blocks"):
        subprocess.run(
            ["cargo", "bench", "-p", "palaver-contract", "--features", "sanitize", "--bench", bench, "--", *timing],
            cwd=ROOT,
            check=True,
        )
    found = medians()
    print(f"\n{'benchmark':<45} {'median':>11} {'floor':>11} {'ratio':>7}")
    for measured, floor in PAIRS:
        print(f"{measured:<45} {shown(found[measured]):>11} {shown(found[floor]):>11} {found[measured] / found[floor]:>6.2f}×")
    for measured in WITHOUT_FLOOR:
        print(f"{measured:<45} {shown(found[measured]):>11} {'-':>11} {'-':>7}")


if __name__ == "__main__":
    main()
