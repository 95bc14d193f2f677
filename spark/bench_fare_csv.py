"""Rows per second of the Spark job (local mode) against one `geofare fare-csv` run on the same file.

    python3 spark/bench_fare_csv.py --geofare .build/release/geofare [--rows 1000000] [--rounds 3] [--master local[2]]

The file is `geofare bench csv`'s totals form (trip_id,distance_m,duration_s,depart_at,party_size,
tariff; Seoul trips over a week), generated here with a fixed seed. Each round runs
`geofare fare-csv FILE -o /dev/null` and `spark-submit spark/fare_csv.py FILE OUT`; the Spark
figure is given twice: wall time of spark-submit (JVM, SparkContext and Python start included)
and the job's own time once Spark is up (boundary scan + tasks, as its summary line reports;
the tasks include starting the Python workers). Medians of the rounds.
"""

import argparse
import json
import os
import platform
import random
import re
import shutil
import statistics
import subprocess
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def generate(path, rows, seed=42):
    rng = random.Random(seed)
    days = ["2024-05-13", "2024-05-14", "2024-05-15", "2024-05-16", "2024-05-17", "2024-05-18", "2024-05-19"]
    with open(path, "w", newline="") as f:
        f.write("trip_id,distance_m,duration_s,depart_at,party_size,tariff\n")
        buf = []
        for i in range(rows):
            d = rng.uniform(500, 30000)
            buf.append(f"{i},{d:.1f},{d / rng.uniform(3, 12):.1f},{days[i % 7]}T{rng.randrange(24):02d}:"
                       f"{rng.randrange(60):02d}:00+09:00,{rng.randint(1, 4)},kr-seoul/regular\n")
            if len(buf) == 100_000:
                f.write("".join(buf))
                buf.clear()
        f.write("".join(buf))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--geofare", default=os.environ.get("GEOFARE", ".build/release/geofare"))
    p.add_argument("--rows", type=int, default=1_000_000)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--master", default="local[2]")
    p.add_argument("--job-args", default="", help="extra arguments for fare_csv.py, e.g. '--partitions 4'")
    a = p.parse_args()
    work = tempfile.mkdtemp(prefix="geofare-spark-bench-")
    try:
        path = os.path.join(work, "trips.csv")
        generate(path, a.rows)
        single, wall, job, scan, start, tasks = [], [], [], [], [], []
        for _ in range(a.rounds):
            t = time.perf_counter()
            r = subprocess.run([a.geofare, "fare-csv", path, "-o", "/dev/null", "--quiet"], capture_output=True)
            single.append(time.perf_counter() - t)
            assert r.returncode == 0, r.stderr
            out = os.path.join(work, "out")
            shutil.rmtree(out, ignore_errors=True)
            t = time.perf_counter()
            r = subprocess.run(["spark-submit", "--master", a.master, "--conf", "spark.ui.enabled=false",
                                os.path.join(HERE, "fare_csv.py"), path, out, "--geofare", a.geofare] + a.job_args.split(),
                               capture_output=True, text=True)
            wall.append(time.perf_counter() - t)
            assert r.returncode == 0, r.stderr[-3000:]
            said = r.stdout + r.stderr  # the Python driver's stderr comes out on spark-submit's stdout
            m = re.search(r"fare_csv: (\d+) partitions, (\d+) rows, .*; boundary scan ([\d.]+) s, "
                          r"Spark start ([\d.]+) s, tasks ([\d.]+) s", said)
            assert m and int(m.group(2)) == a.rows, said[-2000:]
            job.append(float(m.group(3)) + float(m.group(5)))
            scan.append(float(m.group(3)))
            start.append(float(m.group(4)))
            tasks.append(float(m.group(5)))
            partitions = int(m.group(1))
        s, w, j = statistics.median(single), statistics.median(wall), statistics.median(job)
        print(json.dumps({
            "rows": a.rows, "file_bytes": os.path.getsize(path), "rounds": a.rounds, "master": a.master,
            "partitions": partitions, "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, {platform.platform()}",
            "fare_csv_rows_per_second": round(a.rows / s), "spark_wall_rows_per_second": round(a.rows / w),
            "spark_job_rows_per_second": round(a.rows / j),
            "seconds": {"fare_csv": [round(x, 2) for x in single], "spark_wall": [round(x, 2) for x in wall],
                        "spark_job": [round(x, 2) for x in job], "boundary_scan": scan, "spark_start": start,
                        "tasks": tasks},
            "overhead_wall": round(w / s, 2), "overhead_job": round(j / s, 2)}, indent=1))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
