#!/usr/bin/env python3
"""Runs a UPC-MR application (apps/mapreduce) and its MapReduce-over-MPI peer
(bench/peers/mapreduce_mpi) on the same generated input and checks that both
verified their answers and that the answers are equal: the same answer digest
in their result lines and the same summary line (most frequent values, line,
word or malware word).

  compare_answers.py --upc build/apps/mapreduce/hist --peer build/bench/peers/mapreduce_mpi/hist_mrmpi \
      --size 20000 --threads 3 --backend processes [--mpirun mpirun]

--peer-seed gives the peer another input, so that a test sees the check fail.
Exit status 0 when equal, 1 when not (saying what differs), 2 on bad usage.
"""
import argparse
import json
import os
import subprocess
import sys


def run(cmd, env, what):
    try:
        p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=240)
    except subprocess.TimeoutExpired:
        sys.exit(f"compare_answers: {what} did not finish in 240 s: {' '.join(cmd)}")
    if p.returncode != 0:
        sys.exit(f"compare_answers: {what} exited {p.returncode}: {' '.join(cmd)}\n{p.stdout}{p.stderr}")
    results = [json.loads(l.split(" ", 1)[1]) for l in p.stdout.splitlines() if l.startswith("upcemu-result ")]
    if len(results) != 1:
        sys.exit(f"compare_answers: {what} printed {len(results)} result lines, expected 1:\n{p.stdout}")
    app = results[0]["app"]
    # the summary: "<app>: ..." without the timing line ("<app>: N elements, ...")
    summary = [l for l in p.stdout.splitlines() if l.startswith(app + ": ") and " elements, " not in l]
    return results[0], summary


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--upc", required=True)
    ap.add_argument("--peer", required=True)
    ap.add_argument("--size", required=True)
    ap.add_argument("--threads", type=int, required=True)
    ap.add_argument("--backend", default="threads", choices=["threads", "processes"])
    ap.add_argument("--seed", default="2012")
    ap.add_argument("--peer-seed", help="another seed for the peer (to see the check fail); default --seed")
    ap.add_argument("--mpirun", default="mpirun")
    a = ap.parse_args()

    env = dict(os.environ, UPCEMU_THREADS=str(a.threads), UPCEMU_BACKEND=a.backend)
    env.setdefault("UPCEMU_TIMEOUT", "200")
    ours, our_summary = run([a.upc, f"--size={a.size}", f"--seed={a.seed}", "--distribution=block", "--gather=0"], env,
                            "the UPC-MR app")
    # As upcrun starts Open MPI: root allowed, its shared-memory files in /tmp.
    menv = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
                OMPI_MCA_btl_vader_backing_directory="/tmp")
    theirs, their_summary = run([a.mpirun, "-q", "--oversubscribe", "--bind-to", "none", "-n", str(a.threads), a.peer,
                                 f"--size={a.size}", f"--seed={a.peer_seed or a.seed}"], menv, "the MPI peer")
    problems = []
    for name, r in (("UPC-MR", ours), ("MPI peer", theirs)):
        if r.get("verified") is not True:
            problems.append(f"the {name} run did not verify its answer")
        if not r.get("answer"):
            problems.append(f"the {name} run printed no answer digest")
    if ours["app"] != theirs["app"]:
        problems.append(f"different applications: {ours['app']} and {theirs['app']}")
    if ours.get("answer") != theirs.get("answer"):
        problems.append(f"answer digests differ: UPC-MR {ours.get('answer')}, MPI peer {theirs.get('answer')}")
    if our_summary != their_summary or not our_summary:
        problems.append(f"summaries differ: UPC-MR {our_summary}, MPI peer {their_summary}")
    if problems:
        print(f"{ours['app']} on {a.threads} ({a.backend}): " + "; ".join(problems))
        return 1
    print(f"{ours['app']} size {a.size}, {a.threads} threads ({a.backend}) and ranks: equal answers {ours['answer']}: "
          f"{our_summary[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
