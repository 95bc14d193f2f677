"""The Spark fare-csv job against one real `geofare fare-csv` run, in Spark local mode.

Needs the geofare binary in env GEOFARE (`.ci/run` sets it to the debug build) and pyspark with
Java 17 (`.ci/install-deps` installs them). Without GEOFARE the Spark tests fail rather than skip,
so CI cannot pass without running them.
"""

import csv
import io
import os
import random
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
JOB = os.path.join(os.path.dirname(HERE), "fare_csv.py")
sys.path.insert(0, os.path.dirname(HERE))

import fare_csv  # noqa: E402

HEADER = "trip_id,note,origin_lat,origin_lon,dest_lat,dest_lon,distance_m,duration_s,depart_at,party_size,tariff,zone\n"
NOTES = [
    'he said 5" tall',                                    # a stray quote: plain text
    '"line one\nline ""two"", with a comma"',             # quoted, a line break, doubled quotes
    '"three\nline\nbreaks"',
    '"crlf\r\ninside"',
    'line 3: not an error',                               # looks like an error message, is input
    '"x,line 7: y"',
    'a "quoted" word',
    '',
]


def geofare():
    path = os.environ.get("GEOFARE")
    assert path, "set GEOFARE to the geofare binary (e.g. $(swift build --show-bin-path)/geofare)"
    assert os.access(path, os.X_OK), f"GEOFARE={path} is not an executable"
    return path


def trip_rows(seed, count, bad=True):
    """Rows of HEADER's shape: totals and coordinate trips, multi-line notes, and bad rows."""
    rng = random.Random(seed)
    rows = []
    for i in range(count):
        note = NOTES[rng.randrange(len(NOTES))]
        day = f"2024-05-{13 + i % 7:02d}T{rng.randrange(24):02d}:{rng.randrange(60):02d}:00+09:00"
        party = str(rng.randint(1, 4))
        lat, lon, dlat, dlon, dist, dur, tariff = "", "", "", "", "", "", "kr-seoul/regular"
        if i % 3 == 0:
            # origins in central Seoul, and every third one in Uijeongbu (no source gives its
            # tariff group: an assumed row, whose quoted assumption holds commas); destinations
            # anywhere around
            lat, lon = f"{rng.uniform(37.50, 37.60):.6f}", f"{rng.uniform(126.92, 127.05):.6f}"
            if i % 9 == 0:
                lat, lon = f"{rng.uniform(37.735, 37.745):.6f}", f"{rng.uniform(127.03, 127.05):.6f}"
            dlat, dlon = f"{rng.uniform(37.45, 37.65):.6f}", f"{rng.uniform(126.85, 127.15):.6f}"
            tariff = ""
        else:
            d = rng.uniform(500, 30000)
            dist, dur = f"{d:.1f}", f"{d / rng.uniform(3, 12):.1f}"
        kind = rng.randrange(40) if bad else 99
        if kind == 0:
            dist, dur, tariff = "NaN", "600", "kr-seoul/regular"          # not finite
        elif kind == 1:
            lat, lon, dlat, dlon, dist, dur, tariff = "95.5", "127.0", "37.5", "127.0", "", "", ""  # out of range
        elif kind == 2:
            dist, dur, tariff = "4000", "600", "xx-nowhere/regular"       # unknown tariff
        elif kind == 3:
            day = "yesterday"                                             # not ISO 8601
        rows.append(f"{i},{note},{lat},{lon},{dlat},{dlon},{dist},{dur},{day},{party},{tariff},z{i % 5}\n")
    return rows


def write(path, text, newline="\n"):
    with open(path, "wb") as f:
        f.write(text.replace("\n", newline).encode() if newline != "\n" else text.encode())


def fare_csv_run(path, out):
    """One plain `geofare fare-csv` run: (exit status, output bytes)."""
    r = subprocess.run([geofare(), "fare-csv", path, "-o", out, "--quiet"], capture_output=True)
    with open(out, "rb") as f:
        return r.returncode, f.read()


def parts(output_dir):
    names = sorted(n for n in os.listdir(output_dir) if n.startswith("part-"))
    assert all(n.endswith(".csv") for n in names), names
    return [open(os.path.join(output_dir, n), "rb").read() for n in names]


def joined(chunks):
    """Part files joined with one header (each part starts with the same header line)."""
    header = chunks[0][:chunks[0].index(b"\n") + 1]
    for c in chunks:
        assert c.startswith(header), c[:200]
    return header + b"".join(c[len(header):] for c in chunks)


@pytest.fixture(scope="session")
def spark():
    from pyspark.sql import SparkSession
    session = (SparkSession.builder.master("local[2]").appName("fare_csv tests")
               .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false").config("spark.sql.shuffle.partitions", "2").getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    session.sparkContext.addPyFile(JOB)
    yield session
    session.stop()


# --- record boundaries (no Spark) ------------------------------------------------------------

def test_cuts_fall_on_record_boundaries_as_pythons_csv_module_reads_them(tmp_path):
    """Every range starts and ends at a record boundary: parsing the ranges one by one gives the
    records of the whole file. A parity cutter would split inside the quoted fields that follow
    a stray quote; a cutter ignoring quotes would split inside any multi-line field."""
    path = tmp_path / "t.csv"
    write(path, HEADER + "".join(trip_rows(1, 3000)))
    data = path.read_bytes()
    header, ranges = fare_csv.plan_file(str(path), 40)
    assert header == HEADER.encode()
    assert len(ranges) >= 30
    assert ranges[0][0] == len(header) and ranges[-1][1] == len(data)
    assert all(a[1] == b[0] for a, b in zip(ranges, ranges[1:]))

    def records(b):
        return [r for r in csv.reader(io.StringIO(b.decode(), newline="")) if r]

    whole = records(data[len(header):])
    assert len(whole) == 3000
    pieces = []
    for start, end, newlines in ranges:
        assert newlines == data[:start].count(b"\n")
        pieces += records(data[start:end])
    assert pieces == whole


def test_cuts_agree_with_pythons_csv_module_on_seeded_random_csv(tmp_path):
    """Random bytes from CSV's hard cases (quotes anywhere, doubled quotes, commas, LF, CRLF):
    the records of the ranges, read one by one, are the records of the whole file."""
    tokens = ["a", "b", ",", ",", '"', '"', "\n", '""', "\r\n", " "]
    cut_files = 0
    for seed in range(400):
        rng = random.Random(seed)
        text = "h1,h2\n" + "".join(rng.choice(tokens) for _ in range(rng.randint(50, 600))) + "\n"
        path = tmp_path / f"{seed}.csv"
        write(path, text)
        data = path.read_bytes()
        header, ranges = fare_csv.plan_file(str(path), rng.randint(2, 30))
        cut_files += len(ranges) > 1

        def records(b):
            return [r for r in csv.reader(io.StringIO(b.decode(), newline=""), strict=False) if r]

        pieces = []
        for start, end, newlines in ranges:
            assert newlines == data[:start].count(b"\n")
            pieces += records(data[start:end])
        assert pieces == records(data[len(header):]), (seed, text)
    assert cut_files > 300


def test_a_never_closed_quote_keeps_the_rest_of_the_file_in_one_range(tmp_path):
    path = tmp_path / "t.csv"
    rows = trip_rows(2, 400, bad=False)
    unquoted = [r for r in rows[200:] if '"' not in r]  # nothing after it may close it
    write(path, HEADER + "".join(rows[:200]) + '1,"never closed,,,,,,,,,\n' + "".join(unquoted))
    data = path.read_bytes()
    _, ranges = fare_csv.plan_file(str(path), 8)
    assert len(ranges) >= 3
    assert b'1,"never closed' in data[ranges[-1][0]:ranges[-1][1]] and ranges[-1][1] == len(data)
    assert all(b'"never closed' not in data[a:b] for a, b, _ in ranges[:-1])


def test_error_line_numbers_are_renumbered_only_in_the_error_column():
    # The error column is followed by tariff_basis and assumption, empty on an error row.
    out = (b'id,note,error,tariff_basis,assumption\n'
           b'1,line 3: input,line 3: depart_at: bad [invalid_time],,\n'
           b'2,"x,line 4: y",,sourced,\n'
           b'3,"a\nb","line 5: tariff: unknown \'a,b\' [unknown_tariff]",,\n'
           b'4,line 6: input,,assumed,"Gyeonggi standard group (kr-gyeonggi/regular): no source names, line 7: x"\n'
           b',,"line 9: a quoted field opened on line 9 is never closed [csv_unterminated_quote]",,')
    fields = list(fare_csv.error_fields(out))
    assert [out[a:b] for a, b in fields] == [
        b'line 3: depart_at: bad [invalid_time]',
        b'"line 5: tariff: unknown \'a,b\' [unknown_tariff]"',
        b'"line 9: a quoted field opened on line 9 is never closed [csv_unterminated_quote]"']
    assert fare_csv.renumber(out[fields[2][0]:fields[2][1]], 100) == \
        b'"line 109: a quoted field opened on line 109 is never closed [csv_unterminated_quote]"'


def test_strict_is_passed_to_every_partition():
    assert "--strict" in fare_csv.fare_csv_options(fare_csv.parse_args(["in.csv", "out", "--strict"]), 1)
    assert "--strict" not in fare_csv.fare_csv_options(fare_csv.parse_args(["in.csv", "out"]), 1)


# --- the job in Spark local mode -------------------------------------------------------------

def test_one_file_in_several_partitions_equals_one_fare_csv_run(spark, tmp_path):
    path = str(tmp_path / "trips.csv")
    write(path, HEADER + "".join(trip_rows(3, 2500)))
    status, expected = fare_csv_run(path, str(tmp_path / "one.csv"))
    assert status == 65  # the file has bad rows
    out = str(tmp_path / "out")
    code = fare_csv.run([path, out, "--geofare", geofare(), "--partitions", "6"], spark=spark)
    assert code == 65
    chunks = parts(out)
    assert len(chunks) >= 5
    assert joined(chunks) == expected
    # Errors in later partitions name lines of the whole file: renumbering was needed and done.
    later_errors = [line for c in chunks[2:] for line in c.split(b"\n") if b",line " in line and b"[" in line]
    assert later_errors
    assert os.path.exists(os.path.join(out, "_SUCCESS"))


def test_hostile_random_rows_equal_one_fare_csv_run(spark, tmp_path):
    """Seeded random rows of quotes, commas, line breaks and text: nearly every row fails, and
    its error quotes the bad value (commas, quotes, line breaks and all), so renumbering must
    find each error field exactly; the file may end inside a quoted field."""
    rng = random.Random(11)
    tokens = ["1500", "600", "2024-05-13T10:00:00+09:00", "kr-seoul/regular", "x", ",", ",", ",", '"', "\n", "\n",
              '""', "\r\n", "line 2: ", " "]
    path = str(tmp_path / "hostile.csv")
    write(path, "distance_m,duration_s,depart_at,tariff\n" + "".join(rng.choice(tokens) for _ in range(40000)) + "\n")
    status, expected = fare_csv_run(path, str(tmp_path / "one.csv"))
    assert status == 65
    out = str(tmp_path / "out")
    assert fare_csv.run([path, out, "--geofare", geofare(), "--partitions", "7"], spark=spark) == 65
    chunks = parts(out)
    assert len(chunks) >= 5
    assert joined(chunks) == expected


def test_a_directory_of_files_equals_fare_csv_on_each_file_in_name_order(spark, tmp_path):
    src = tmp_path / "in"
    src.mkdir()
    # b.csv ends in a quoted field that never closes: an error row naming its line.
    write(src / "b.csv", HEADER + "".join(trip_rows(5, 900)) + '900,"never closed\n'
          + "".join(r for r in trip_rows(9, 50) if '"' not in r))
    write(src / "a.csv", "\ufeff" + HEADER + "".join(trip_rows(4, 700)), newline="\r\n")  # BOM and CRLF
    write(src / "c.csv", HEADER + "".join(trip_rows(6, 300, bad=False)))
    write(src / "_ignored.csv", "not,a,trip\n")
    expected = []
    for name in ("a.csv", "b.csv", "c.csv"):
        expected.append(fare_csv_run(str(src / name), str(tmp_path / (name + ".out")))[1])
    out = str(tmp_path / "out")
    code = fare_csv.run([str(src), out, "--geofare", geofare(), "--partition-bytes", "30000"], spark=spark)
    assert code == 65
    chunks = parts(out)
    assert len(chunks) >= 5
    assert joined(chunks) == joined(expected)


def test_exit_status_zero_when_every_row_is_priced(spark, tmp_path):
    path = str(tmp_path / "good.csv")
    write(path, HEADER + "".join(trip_rows(7, 600, bad=False)))
    status, expected = fare_csv_run(path, str(tmp_path / "one.csv"))
    assert status == 0
    out = str(tmp_path / "out")
    assert fare_csv.run([path, out, "--geofare", geofare(), "--partitions", "3"], spark=spark) == 0
    assert joined(parts(out)) == expected


def test_a_fatal_geofare_error_fails_the_job(spark, tmp_path):
    """A header without the needed columns: geofare writes nothing and exits 65. That is not a
    row error: the job must fail (1), publish no part file and no _SUCCESS."""
    path = str(tmp_path / "bad-header.csv")
    write(path, "a,b,c\n" + "1,2,3\n" * 100)
    out = str(tmp_path / "out")
    assert fare_csv.run([path, out, "--geofare", geofare(), "--partitions", "2"], spark=spark) == 1
    assert parts(out) == [] and not os.path.exists(os.path.join(out, "_SUCCESS"))


def test_spark_submit_exits_with_geofares_status_on_a_usage_error(tmp_path):
    """Through spark-submit, as a user runs it: geofare rejects `--map nonsense` (64, usage), and
    the job's own exit status says so; then a good run with the binary shipped by --files."""
    path = str(tmp_path / "trips.csv")
    write(path, HEADER + "".join(trip_rows(8, 200, bad=False)))
    env = dict(os.environ, GEOFARE=geofare())
    r = subprocess.run(["spark-submit", "--master", "local[2]", "--conf", "spark.ui.enabled=false",
                        JOB, path, str(tmp_path / "out"), "--partitions", "2", "--map", "nonsense"],
                       capture_output=True, env=env, timeout=300)
    said = r.stdout + r.stderr  # spark-submit passes the Python driver's stderr to its stdout
    assert r.returncode == 64, said.decode()[-3000:]
    assert b"failed with status 64" in said and b"--map takes col=header" in said
    # The binary shipped as a cluster would get it: --files copies it next to each executor.
    env.pop("GEOFARE")
    r = subprocess.run(["spark-submit", "--master", "local[2]", "--conf", "spark.ui.enabled=false",
                        "--files", geofare(), JOB, path, str(tmp_path / "out2"), "--partitions", "2",
                        "--geofare", os.path.basename(geofare())],
                       capture_output=True, env=env, timeout=300)
    assert r.returncode == 0, (r.stdout + r.stderr).decode()[-3000:]
    assert len(parts(str(tmp_path / "out2"))) == 2
