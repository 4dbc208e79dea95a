"""Rewrite day-first dates (31/12/2024) as ISO dates in one CSV column."""

import csv
import sys


def main() -> int:
    path, column = sys.argv[1], sys.argv[2]
    with open(path, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    for row in rows:
        day, month, year = row[column].split("/")
        row[column] = f"{year}-{month}-{day}"
    writer = csv.DictWriter(sys.stdout, fieldnames=list(rows[0]) if rows else [column])
    writer.writeheader()
    writer.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
