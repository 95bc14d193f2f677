"""Price a large CSV file (or a directory of them) on a Spark cluster with `geofare fare-csv`.

    spark-submit spark/fare_csv.py INPUT OUTPUT_DIR [--geofare PATH] [--partitions N | --partition-bytes N]
                                   [--map col=header ...] [--threads N] [--data DIR] [--strict]

--map, --threads, --data and --strict go to every partition's `geofare fare-csv` (--threads defaults to
spark.task.cpus, the cores a task holds). --max-errors has no per-partition meaning and is not
offered.

The driver scans each input file once for record boundaries (the rule of GeoFare's record
scanner: a quote opens a quoted field only at the start of a field), cuts it into byte ranges
that start and end at record boundaries, and hands each range to a Spark task. A task pipes the
file's header and its range into one `geofare fare-csv` process and writes the result to
OUTPUT_DIR/part-NNNNN.csv (header included), renumbering the `line N:` of error messages so
they name the line of the input file, as one `fare-csv` run over the whole file does. Read in
name order, the part files hold the input's rows in input order.

Paths (INPUT, OUTPUT_DIR, the binary) must be visible under the same name to the driver and
to every executor: a local path in local mode, a shared file system (NFS, a FUSE mount) on a
cluster. The binary may instead be shipped with `spark-submit --files /path/to/geofare`.

Exit status: 0 when every row was priced; 65 when some rows got an `error` (every row is still
written, as with `fare-csv`); the failing `geofare`'s own status (127 when it cannot be started,
1 when it died by a signal or gave no output) when any partition failed, in which case that
partition's part file is missing; 2 for bad arguments to this script.
"""

import argparse
import mmap
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

QUOTE = 0x22
COMMA = 0x2C
NEWLINE = 0x0A
BOM = b"\xef\xbb\xbf"
DEFAULT_PARTITION_BYTES = 64 << 20


class UsageError(Exception):
    """Bad arguments or an unusable input: the job exits 2 before starting Spark tasks."""


# ---------------------------------------------------------------------------------------------
# Record boundaries (driver side)
# ---------------------------------------------------------------------------------------------

class BoundaryScanner:
    """Finds record ends in a CSV byte buffer with GeoFare's record scanner rules.

    A quote opens a quoted field only at the start of a field (the first byte of a record or
    right after a comma); inside a quoted field `""` is a quote and a lone `"` closes it; any
    other quote is plain text (`5" tall`). A line feed outside a quoted field ends a record.
    Python's csv module reads the same way. The scan jumps from quote to quote with `find`,
    so a file without quotes costs little more than a search for line feeds.

    The scanner only moves forward: `position` is the next byte to look at, always outside a
    quoted field; `field_start` says whether that byte starts a field.
    """

    def __init__(self, data, start):
        self.data = data
        self.size = len(data)
        self.position = start
        self.field_start = True

    def record_end_at_or_after(self, target):
        """The index of the first record-ending line feed at or after `target` (and at or after
        the current position), or None when none is left (the input ends, or a quoted field
        is never closed). The scanner then stands just past the returned line feed."""
        data = self.data
        while True:
            i = self.position
            at = max(i, target)
            q = data.find(b'"', i, at)  # searches stop at the target: each byte is looked at once
            if q < 0:
                nl = data.find(b"\n", at)
                if nl < 0:
                    return None
                q = data.find(b'"', at, nl)
                if q < 0:
                    self.position = nl + 1
                    self.field_start = True
                    return nl
            # A quote before the target or before the first line feed after it.
            if q == i:
                opens = self.field_start
            else:
                opens = data[q - 1] in (COMMA, NEWLINE)
            if not opens:
                self.position = q + 1
                self.field_start = False
                continue
            p = q + 1
            while True:
                p = data.find(b'"', p)
                if p < 0:
                    return None  # never closed: the rest of the input is one record
                if p + 1 < self.size and data[p + 1] == QUOTE:
                    p += 2
                    continue
                break
            self.position = p + 1
            self.field_start = False


def count_newlines(data, start, end, step=8 << 20):
    """Line feeds in data[start:end], counted in slices so memory stays bounded."""
    n = 0
    while start < end:
        stop = min(end, start + step)
        n += data[start:stop].count(b"\n")
        start = stop
    return n


def plan_file(path, parts):
    """Cuts one file into about `parts` byte ranges at record boundaries.

    Returns (header bytes, [(start, end, newlines before start)]): the header record with its
    line break and without a byte-order mark, and the row ranges (at least one, maybe empty).
    """
    size = os.path.getsize(path)
    if size == 0:
        return b"", [(0, 0, 0)]
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:
        skip = 3 if data[:3] == BOM else 0
        scanner = BoundaryScanner(data, skip)
        header_end = scanner.record_end_at_or_after(skip)
        if header_end is None:
            return data[skip:size], [(size, size, data[:size].count(b"\n"))]
        header = data[skip:header_end + 1]
        first = header_end + 1
        cuts = [first]
        span = size - first
        for k in range(1, max(1, parts)):
            target = first + span * k // parts
            if target <= cuts[-1]:
                continue
            end = scanner.record_end_at_or_after(target)
            if end is None or end + 1 >= size:
                break
            cuts.append(end + 1)
        cuts.append(size)
        ranges = []
        newlines = count_newlines(data, 0, first)
        for a, b in zip(cuts, cuts[1:]):
            ranges.append((a, b, newlines))
            newlines += count_newlines(data, a, b)
        return header, ranges


def input_files(path):
    """The input files: the file itself, or a directory's visible regular files in name order."""
    if os.path.isdir(path):
        names = sorted(n for n in os.listdir(path) if not n.startswith((".", "_")))
        files = [os.path.join(path, n) for n in names if os.path.isfile(os.path.join(path, n))]
        if not files:
            raise UsageError(f"{path}: no input files in the directory")
        return files
    if not os.path.isfile(path):
        raise UsageError(f"{path}: no such file or directory")
    return [path]


def plan(path, partitions, partition_bytes):
    """The tasks for an input: one dict per byte range, numbered in input order."""
    files = input_files(path)
    sizes = [os.path.getsize(f) for f in files]
    total = max(1, sum(sizes))
    tasks = []
    header0 = None
    for f, size in zip(files, sizes):
        if partitions:
            parts = max(1, round(partitions * size / total))
        else:
            parts = max(1, -(-size // partition_bytes))
        header, ranges = plan_file(f, parts)
        if header0 is None:
            header0 = (f, header)
        elif header.rstrip(b"\r\n") != header0[1].rstrip(b"\r\n"):
            raise UsageError(f"{f}: its header differs from {header0[0]}'s; all input files need the same header")
        for start, end, newlines in ranges:
            tasks.append({"index": len(tasks), "path": f, "header": header, "start": start, "end": end,
                          # fare-csv numbers the partition's first row header-lines + 1; in the
                          # whole file it is newlines + 1.
                          "line_offset": newlines - header.count(b"\n")})
    return tasks


# ---------------------------------------------------------------------------------------------
# One partition (executor side)
# ---------------------------------------------------------------------------------------------

ERROR_START = re.compile(rb',("?)line (\d+): ')
UNTERMINATED = re.compile(rb"opened on line (\d+) is never closed")
SUMMARY = re.compile(rb"fare-csv: (\d+) rows, (\d+) priced, (\d+) failed")


def count_quotes(data, start, end, step=8 << 20):
    n = 0
    while start < end:
        stop = min(end, start + step)
        n += data[start:stop].count(b'"')
        start = stop
    return n


def error_fields(data):
    """(start, end) of each non-empty `error` field in fare-csv output.

    The error field is the third-last of its record, followed by `tariff_basis` and
    `assumption`, which a row with an error leaves empty: so it is followed by `,,` and the end
    of the record. It starts `line N: ` (quoted when it holds a comma, quote or line break).
    fare-csv's writer quotes whole fields only, so quote parity from the start tells whether a
    comma is outside a quoted field, and a candidate counts only when `,,` and the record's end
    follow it (an input column holding `line 3: x` is followed by the fourteen result columns).
    """
    quotes = 0
    counted = 0
    size = len(data)
    for m in ERROR_START.finditer(data):
        comma = m.start()
        quotes += count_quotes(data, counted, comma)
        counted = comma
        if quotes % 2:
            continue
        start = comma + 1
        if m.group(1):
            p = start + 1
            while True:
                p = data.find(b'"', p)
                if p < 0:
                    break
                if p + 1 < size and data[p + 1] == QUOTE:
                    p += 2
                    continue
                break
            if p < 0:
                continue
            end = p + 1
        else:
            # unquoted: it holds no comma, so it ends at the next one
            end = data.find(b",", start)
            if end < 0:
                continue
        if data[end:end + 2] == b",," and (end + 2 == size or data[end + 2] == NEWLINE):
            yield start, end


def renumber(field, offset):
    """An error field with its input line numbers moved by `offset`."""
    def shift(m):
        return m.group(0).replace(m.group(1), str(int(m.group(1)) + offset).encode(), 1)
    prefix = re.compile(rb'^("?line )(\d+)(: )')
    field = prefix.sub(lambda m: m.group(1) + str(int(m.group(2)) + offset).encode() + m.group(3), field, count=1)
    if field.rstrip(b'"').endswith(b"[csv_unterminated_quote]"):
        field = UNTERMINATED.sub(shift, field, count=1)
    return field


def renumber_file(src, dst, offset):
    """Copies fare-csv output from `src` to `dst`, moving the error lines by `offset`."""
    with open(src, "rb") as f, open(dst, "wb") as out:
        if os.fstat(f.fileno()).st_size == 0:
            return
        with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:
            done = 0
            for start, end in error_fields(data):
                out.write(data[done:start])
                out.write(renumber(data[start:end], offset))
                done = end
            step = 8 << 20
            while done < len(data):
                out.write(data[done:done + step])
                done += step


def resolve_binary(name):
    """The geofare binary on this machine: a path, a file shipped with --files, or PATH."""
    if os.sep in name and os.path.isfile(name):
        return name
    try:
        from pyspark import SparkFiles
        shipped = SparkFiles.get(os.path.basename(name))
        if os.path.isfile(shipped):
            return shipped
    except Exception:
        pass
    found = shutil.which(name)
    return found or name


def run_partition(task, binary, options, output_dir):
    """Runs fare-csv on one task's range and publishes part-NNNNN.csv; returns its status."""
    index = task["index"]
    final = os.path.join(output_dir, f"part-{index:05d}.csv")
    status = {"index": index, "path": task["path"], "code": 0, "rows": 0, "failed": 0, "stderr": ""}
    fd, raw = tempfile.mkstemp(prefix=f".part-{index:05d}.", suffix=".raw", dir=output_dir)
    os.close(fd)
    err = tempfile.TemporaryFile()
    try:
        command = [resolve_binary(binary), "fare-csv", "-", "-o", raw] + options
        try:
            proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=err)
        except OSError as e:
            status.update(code=127, stderr=f"cannot run {command[0]}: {e}")
            return status
        try:
            proc.stdin.write(task["header"])
            with open(task["path"], "rb") as f:
                f.seek(task["start"])
                left = task["end"] - task["start"]
                while left > 0:
                    chunk = f.read(min(left, 1 << 20))
                    if not chunk:
                        break
                    proc.stdin.write(chunk)
                    left -= len(chunk)
            proc.stdin.close()
        except BrokenPipeError:
            pass  # it stopped reading: its exit status says why
        code = proc.wait()
        err.seek(0)
        text = err.read()
        status["stderr"] = text[-4000:].decode("utf-8", "replace")
        summary = SUMMARY.findall(text)
        if summary:
            status["rows"], status["failed"] = int(summary[-1][0]), int(summary[-1][2])
        if code < 0:
            status["code"] = 128 - code  # killed by a signal, as a shell reports it
        elif code not in (0, 65):
            status["code"] = code
        elif os.path.getsize(raw) == 0:
            status["code"] = 1  # a fatal input error (no header, a missing column): nothing written
            status["stderr"] = f"geofare exited {code} without writing a header\n" + status["stderr"]
        else:
            status["code"] = 0 if code == 0 else 65
            if code == 65 and task["line_offset"] != 0:
                fd, fixed = tempfile.mkstemp(prefix=f".part-{index:05d}.", suffix=".fixed", dir=output_dir)
                os.close(fd)
                renumber_file(raw, fixed, task["line_offset"])
                os.replace(fixed, raw)
            os.replace(raw, final)
        return status
    finally:
        err.close()
        if os.path.exists(raw):
            os.remove(raw)


# ---------------------------------------------------------------------------------------------
# The job (driver side)
# ---------------------------------------------------------------------------------------------

def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="fare_csv.py",
        description="Price a CSV file or a directory of CSV files (same header) on Spark with geofare fare-csv.")
    parser.add_argument("input", help="a CSV file, or a directory of CSV files with the same header")
    parser.add_argument("output_dir", help="receives part-NNNNN.csv (must not exist, or be empty)")
    parser.add_argument("--geofare", help="the geofare binary (default: $GEOFARE, else geofare on PATH or shipped with --files)")
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--partitions", type=int, help="about this many partitions in all (default: one per --partition-bytes)")
    size.add_argument("--partition-bytes", type=int, default=DEFAULT_PARTITION_BYTES,
                      help=f"target input bytes per partition (default {DEFAULT_PARTITION_BYTES})")
    passed = parser.add_argument_group("fare-csv options, passed to every partition's geofare")
    passed.add_argument("--map", action="append", default=[], metavar="col=header", help="rename a column (repeatable)")
    passed.add_argument("--threads", type=int, help="threads per geofare (default: spark.task.cpus)")
    passed.add_argument("--data", metavar="DIR", help="a data directory, at the same path on every executor")
    passed.add_argument("--strict", action="store_true",
                        help="refuse rows where no source settles the tariff (their error instead of an assumed price)")
    args = parser.parse_args(argv)
    if args.partitions is not None and args.partitions < 1:
        raise UsageError("--partitions must be at least 1")
    if args.partition_bytes < 1:
        raise UsageError("--partition-bytes must be at least 1")
    return args


def fare_csv_options(args, task_cpus):
    """The options every partition's `geofare fare-csv` gets."""
    options = []
    for m in args.map:
        options += ["--map", m]
    options += ["--threads", str(args.threads if args.threads else task_cpus)]
    if args.data:
        options += ["--data", args.data]
    if args.strict:
        options += ["--strict"]
    return options


def run(argv, spark=None, log=sys.stderr):
    """Runs the job; returns the exit status. Uses `spark` or the active/new SparkSession."""
    try:
        try:
            args = parse_args(argv)
        except SystemExit as e:  # argparse printed the usage
            return e.code if isinstance(e.code, int) else 2
        binary = args.geofare or os.environ.get("GEOFARE") or "geofare"
        output_dir = os.path.abspath(args.output_dir)
        if os.path.exists(output_dir) and (not os.path.isdir(output_dir) or os.listdir(output_dir)):
            raise UsageError(f"{output_dir}: exists and is not an empty directory")
        started = time.time()
        tasks = plan(args.input, args.partitions, args.partition_bytes)
    except UsageError as e:
        print(f"fare_csv: {e}", file=log)
        return 2
    os.makedirs(output_dir, exist_ok=True)
    planned = time.time()

    own = spark is None
    if own:
        from pyspark.sql import SparkSession
        spark = SparkSession.builder.appName("geofare fare-csv").getOrCreate()
    try:
        return run_tasks(spark, args, tasks, binary, output_dir, log, started, planned)
    finally:
        if own:
            spark.stop()


def run_tasks(spark, args, tasks, binary, output_dir, log, started, planned):
    """Runs one Spark task per range, reports, and returns the job's exit status."""
    sc = spark.sparkContext
    ready = time.time()
    # One Spark task slot is spark.task.cpus cores: by default fare-csv uses that many threads.
    options = fare_csv_options(args, sc.getConf().get("spark.task.cpus", "1"))
    statuses = (sc.parallelize(tasks, len(tasks))
                  .map(lambda t: run_partition(t, binary, options, output_dir))
                  .collect())
    done = time.time()
    bad = [s for s in statuses if s["code"] not in (0, 65)]
    rows = sum(s["rows"] for s in statuses)
    failed = sum(s["failed"] for s in statuses)
    for s in bad:
        print(f"fare_csv: partition {s['index']} ({s['path']}) failed with status {s['code']}:\n{s['stderr'].rstrip()}", file=log)
    tasks_s = done - ready
    print(f"fare_csv: {len(tasks)} partitions, {rows} rows, {failed} failed, {len(bad)} partitions failed; "
          f"boundary scan {planned - started:.2f} s, Spark start {ready - planned:.2f} s, tasks {tasks_s:.2f} s "
          f"({rows / tasks_s if tasks_s else 0:.0f} rows/s)", file=log)
    if bad:
        return next((s["code"] for s in bad if 0 < s["code"] < 128), 1)
    open(os.path.join(output_dir, "_SUCCESS"), "wb").close()
    return 65 if any(s["code"] == 65 for s in statuses) else 0


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
