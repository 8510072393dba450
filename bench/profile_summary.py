"""Summarise py-spy collapsed stacks (``bench/load.py --profile FILE``): the share of samples
in which each function appears (inclusive) and at the top of the stack (self).

    .venv/bin/python bench/profile_summary.py FILE [--top 30] [--match app/]
"""

from __future__ import annotations

import argparse
import re
from collections import Counter


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("file")
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--match", default="", help="only frames whose text contains this")
    args = parser.parse_args()
    inclusive: Counter = Counter()
    own: Counter = Counter()
    total = 0
    with open(args.file) as f:
        for line in f:
            stack, _, count = line.rstrip().rpartition(" ")
            n = int(count)
            total += n
            frames = [re.sub(r":\d+\)$", ")", fr) for fr in stack.split(";")]
            for frame in set(frames):
                if args.match in frame:
                    inclusive[frame] += n
            if frames and args.match in frames[-1]:
                own[frames[-1]] += n
    print(f"{total} samples")
    print("inclusive:")
    for frame, n in inclusive.most_common(args.top):
        print(f"{n / total:6.1%}  {frame}")
    print("self:")
    for frame, n in own.most_common(args.top):
        print(f"{n / total:6.1%}  {frame}")


if __name__ == "__main__":
    main()
