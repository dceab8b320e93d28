"""The LEDBAT and TCP-LP dumbbells in delaycc and in ns-3, side by side (docs/crosscheck.md, "ns-3: LEDBAT
and TCP-LP"). Needs the optional ns3 wheel in the same Python: `pip install ns3==3.44.post0`.

    python tools/ns3/compare.py [--case NAME ...] [--duration S] [--ledbat-slow-start]
                                [--tcp-lp-range-reset one-way|linux|none]
"""

from __future__ import annotations

import argparse
import dataclasses
import sys

from delaycc import ns3


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument(
        "--case", action="append", choices=[c.name for c in ns3.CASES], help="one case (repeatable)"
    )
    ap.add_argument("--duration", type=float, help="seconds (default: each case's, 60)")
    ap.add_argument(
        "--ledbat-slow-start", action="store_true", help="LEDBAT slow-starts on both sides (ns-3's default)"
    )
    ap.add_argument(
        "--tcp-lp-range-reset",
        choices=["one-way", "linux", "none"],
        default="one-way",
        help="delaycc TCP-LP's range_reset (ns-3's TcpLp resets as linux does)",
    )
    args = ap.parse_args(argv)
    if not ns3.available():
        print(f"ns3 is not installed: {ns3.INSTALL_HINT}", file=sys.stderr)
        return 2
    cases = [c for c in ns3.CASES if not args.case or c.name in args.case]
    if args.duration:
        cases = [dataclasses.replace(c, duration_s=args.duration) for c in cases]
    t = ns3.Transport(ledbat_slow_start=args.ledbat_slow_start, tcp_lp_range_reset=args.tcp_lp_range_reset)
    ours = [ns3.run_delaycc(c, t) for c in cases]
    try:
        theirs = ns3.run_ns3(cases, t)
    except ns3.Ns3Error as e:
        print(f"ns-3 failed: {e}", file=sys.stderr)
        return 2
    print("delaycc / ns-3\n")
    print(ns3.table(cases, ours, theirs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
