"""Compare a CSV header with a column contract (one name per line)."""

import csv
import sys


def main() -> int:
    export, contract = sys.argv[1], sys.argv[2]
    with open(export, newline="", encoding="utf-8") as handle:
        header = next(csv.reader(handle), [])
    with open(contract, encoding="utf-8") as handle:
        wanted = [line.strip() for line in handle if line.strip()]
    for name in wanted:
        print(f"{name}: {'ok' if name in header else 'missing'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
