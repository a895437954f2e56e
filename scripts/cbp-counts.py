#!/usr/bin/env python3
"""Makes seeds/cbp_236118.csv: establishments of NAICS 236118 (residential remodelers) per county in
the target states, from the US Census Bureau's County Business Patterns (CBP) county file.

Source (public domain, US Census Bureau), year 2022 (the latest release when this was written):
    https://www2.census.gov/programs-surveys/cbp/datasets/2022/cbp22co.zip   (cbp22co.txt inside)
Record layout:
    https://www2.census.gov/programs-surveys/cbp/technical-documentation/records-layouts/2022_record_layouts/county-layout-2022.txt
County names (optional; CBP has only FIPS codes):
    https://www2.census.gov/geo/docs/reference/codes2020/national_county2020.txt

This machine has no internet: download those files elsewhere and run
    python3 scripts/cbp-counts.py --year 2022 path/to/cbp22co.zip [--names national_county2020.txt] > seeds/cbp_236118.csv
The CBP file may be the .zip or the .txt inside it. Columns are found by their header names
(fipstate, fipscty, naics, est), so other years' files work too (`--year` and `--url` go into the header).
"""

import argparse
import csv
import io
import sys
import zipfile

NAICS = "236118"
# The product's target states (jobs/src/scoring.rs TARGET_STATES) by state FIPS code.
STATES = {"48": "TX", "22": "LA", "05": "AR", "28": "MS", "35": "NM", "40": "OK", "04": "AZ"}


def open_text(path):
    if path.endswith(".zip"):
        archive = zipfile.ZipFile(path)
        inner = next(n for n in archive.namelist() if n.lower().endswith(".txt"))
        return io.TextIOWrapper(archive.open(inner), encoding="latin-1", newline="")
    return open(path, encoding="latin-1", newline="")


def county_names(path):
    names = {}
    if not path:
        return names
    with open(path, encoding="latin-1", newline="") as f:
        for row in csv.DictReader(f, delimiter="|"):
            names[row["STATEFP"] + row["COUNTYFP"]] = row["COUNTYNAME"]
    return names


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("cbp", help="cbpYYco.zip or cbpYYco.txt")
    parser.add_argument("--year", required=True, help="the release's reference year, e.g. 2022")
    parser.add_argument("--url", help="where the file came from (default: the Census URL of --year)")
    parser.add_argument("--names", help="national_county2020.txt (pipe-separated) for county names")
    args = parser.parse_args()
    yy = args.year[-2:]
    url = args.url or f"https://www2.census.gov/programs-surveys/cbp/datasets/{args.year}/cbp{yy}co.zip"
    names = county_names(args.names)
    rows = []
    with open_text(args.cbp) as f:
        reader = csv.DictReader(f)
        reader.fieldnames = [n.strip().lower() for n in reader.fieldnames or []]
        for needed in ("fipstate", "fipscty", "naics", "est"):
            if needed not in reader.fieldnames:
                sys.exit(f"{args.cbp}: no {needed!r} column; is this a CBP county file?")
        for row in reader:
            state = STATES.get(row["fipstate"].strip().zfill(2))
            # 999 is CBP's "statewide" pseudo-county: establishments with no single county.
            if not state or row["naics"].strip() != NAICS:
                continue
            fips = row["fipstate"].strip().zfill(2) + row["fipscty"].strip().zfill(3)
            rows.append((state, fips, names.get(fips, ""), int(row["est"])))
    rows.sort(key=lambda r: (r[0], r[1]))
    out = csv.writer(sys.stdout, lineterminator="\n")
    sys.stdout.write(f"# US Census Bureau, County Business Patterns {args.year}: establishments of NAICS {NAICS}\n")
    sys.stdout.write("# (residential remodelers) per county in TX, LA, AR, MS, NM, OK and AZ. Made by scripts/cbp-counts.py.\n")
    sys.stdout.write(f"# source: {url}\n# year: {args.year}\n")
    out.writerow(["state", "county_fips", "county", "establishments"])
    out.writerows(rows)
    print(f"{len(rows)} counties, {sum(r[3] for r in rows)} establishments", file=sys.stderr)


if __name__ == "__main__":
    main()
