#!/usr/bin/env python3
"""Two builds of upcemu side by side (issue 28: "speed unchanged"): collbench
(broadcast, exchange, gather_all, reduce at 8 B, 1 KiB and 128 KiB) and
barrier_latency at 2 and 4 threads, threads backend, the two builds alternated
in every round (which goes first alternates too); each case's median over the
rounds of the runs' medians, and after / before.

  tools/bench/compare_builds.py --before OLD_BUILD --after build --rounds 7 --out DIR

Each build needs bench/collbench/collbench and bench/micro/barrier_latency
(e.g. `git worktree add /tmp/old REV && meson setup /tmp/old/b --buildtype=release
-Dtests=false && ninja -C /tmp/old/b bench/collbench/collbench bench/micro/barrier_latency`).
Writes DIR/runs.json (every median, by case and side), DIR/machine.txt, DIR/table.md."""
import argparse, datetime, json, os, statistics, subprocess, sys

COLLS = ('broadcast', 'exchange', 'gather_all', 'reduce')
THREADS = (2, 4)


def rows(command, threads):
    env = dict(os.environ, UPCEMU_THREADS=str(threads), UPCEMU_BACKEND='threads')
    p = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600)
    if p.returncode != 0:
        sys.exit(f'compare_builds.py: {command[0]} failed (exit {p.returncode}): {p.stderr[-300:]}')
    return [json.loads(l) for l in p.stdout.splitlines() if l.startswith('{')]


def one_round(builds, order, res):
    for coll in COLLS:
        for t in THREADS:
            for side in order:
                for x in rows([builds[side] + '/bench/collbench/collbench', f'--coll={coll}', '--min-bytes=8',
                               '--max-bytes=1048576', '--step=128', '--format=jsonl', '--reps=5'], t):
                    res.setdefault(f'{coll}|{t}|{x["nbytes"]}', {}).setdefault(side, []).append(x['median_us'])
    for t in THREADS:
        for side in order:
            for x in rows([builds[side] + '/bench/micro/barrier_latency', '--format=jsonl'], t):
                if 'median_us' in x:
                    res.setdefault(f'barrier|{t}|0', {}).setdefault(side, []).append(x['median_us'])


def table(res):
    out = ['| op | THREADS | bytes | before µs | after µs | after / before |', '|---|---|---|---|---|---|']
    for key in sorted(res, key=lambda k: (k.split('|')[0], int(k.split('|')[1]), int(k.split('|')[2]))):
        op, t, nbytes = key.split('|')
        b, a = statistics.median(res[key]['before']), statistics.median(res[key]['after'])
        out.append(f'| {op} | {t} | {nbytes} | {b:.3g} | {a:.3g} | {a / b:.2f} |')
    return '\n'.join(out) + '\n'


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--before', required=True)
    ap.add_argument('--after', required=True)
    ap.add_argument('--rounds', type=int, default=7)
    ap.add_argument('--out', required=True)
    o = ap.parse_args()
    builds = {'before': o.before, 'after': o.after}
    os.makedirs(o.out, exist_ok=True)
    res, loads = {}, []
    for r in range(o.rounds):
        one_round(builds, ['before', 'after'] if r % 2 == 0 else ['after', 'before'], res)
        loads.append(os.getloadavg()[0])
        print(f'round {r + 1} of {o.rounds}, load {loads[-1]:.1f}', flush=True)
    json.dump(res, open(os.path.join(o.out, 'runs.json'), 'w'), indent=0)
    with open(os.path.join(o.out, 'machine.txt'), 'w') as f:
        f.write(f'date: {datetime.datetime.utcnow().isoformat(timespec="seconds")}Z\ncpus: {os.cpu_count()}\n'
                f'before: {o.before}\nafter: {o.after}\nrounds: {o.rounds}\n'
                f'load after each round (1 min): {" ".join(f"{x:.1f}" for x in loads)}\n')
    text = table(res)
    open(os.path.join(o.out, 'table.md'), 'w').write(text)
    print(text, end='')


if __name__ == '__main__':
    main()
