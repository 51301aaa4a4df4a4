"""One generated program (a seed's objects and cases) written as UPC source for
upcc and as its C++ twin on upcemu's API. Both print, per thread, a transcript
into PREFIX.<MYTHREAD> (argv[1]): one line per printed value, tagged
case.atom.n, plus a 'v<case> ...' line for any element a case left changed."""
import random

from gen import FAMILIES, Generator
from model import make_objects, ELEMS, REC, STAR, Arr1, Arr2, Size

COMMON = r'''
struct rec { int a; char c; double d; short arr[3]; long l; };
static long iv(int o, long i, long m) { return (o * 131L + i * 7L + 3L) % m; }
static char init_c(int o, long i) { return (char)iv(o, i, 100); }
static short init_s(int o, long i) { return (short)iv(o, i, 30000); }
static int init_i(int o, long i) { return (int)iv(o, i, 1000003); }
static long init_l(int o, long i) { return iv(o, i, 1000003) + ((long)o << 34); }
static double init_d(int o, long i) { return o + i * 0.25 + 0.125; }
static struct rec init_r(int o, long i) {
  struct rec r;
  memset(&r, 0, sizeof r);
  r.a = init_i(o, i);
  r.c = init_c(o, i + 1);
  r.d = init_d(o, i);
  for (int k = 0; k < 3; k++) r.arr[k] = init_s(o, 3 * i + k);
  r.l = init_l(o, i);
  return r;
}
static int rec_eq(struct rec x, struct rec y) {
  return x.a == y.a && x.c == y.c && x.d == y.d && x.arr[0] == y.arr[0] && x.arr[1] == y.arr[1] &&
         x.arr[2] == y.arr[2] && x.l == y.l;
}
PRIVATE FILE *out;
static void pr_l(const char *tag, long v) { fprintf(out, "%s %ld\n", tag, v); }
static void pr_d(const char *tag, double v) { fprintf(out, "%s %.17g\n", tag, v); }
static void pr_r(const char *tag, struct rec r) {
  fprintf(out, "%s {%d %d %.17g %d %d %d %ld}\n", tag, r.a, r.c, r.d, r.arr[0], r.arr[1], r.arr[2], r.l);
}
static void pr_p(const char *tag, long t, long ph, long a) { fprintf(out, "%s T%ld P%ld A%ld\n", tag, t, ph, a); }
static void pr_vl(int c, const char *o, long i, long v) { fprintf(out, "v%d %s[%ld] changed: %ld\n", c, o, i, v); }
static void pr_vd(int c, const char *o, long i, double v) { fprintf(out, "v%d %s[%ld] changed: %.17g\n", c, o, i, v); }
static void pr_vr(int c, const char *o, long i, struct rec r) {
  fprintf(out, "v%d %s[%ld] changed: {%d %d %.17g %d %d %d %ld}\n", c, o, i, r.a, r.c, r.d, r.arr[0], r.arr[1],
          r.arr[2], r.l);
}
static int open_transcript(int argc, char **argv) {
  char name[4096];
  if (argc < 2) {
    fprintf(stderr, "usage: %s TRANSCRIPT_PREFIX (writes TRANSCRIPT_PREFIX.<MYTHREAD>)\n", argv[0]);
    return 0;
  }
  snprintf(name, sizeof name, "%s.%d", argv[1], (int)MYTHREAD);
  out = fopen(name, "w");
  if (!out) {
    perror(name);
    return 0;
  }
  setvbuf(out, NULL, _IOLBF, 0);
  return 1;
}
'''

UPC_HEAD = '''#include <upc.h>
#include <stdio.h>
#include <string.h>
#define PRIVATE static
'''

CXX_HEAD = '''#include <cstdio>
#include <cstring>
#include "upc.h"
#define PRIVATE static thread_local
// The value of a shared element or scalar (x.get()); anything else as it is.
template <class X>
static auto upcd_v(const X& x) {
  if constexpr (requires { x.get(); }) return x.get();
  else return x;
}
'''


def helper(kind, pt, lang):
    """Declarations of a helper for pointer type pt: slots and functions."""
    k, e = pt.key, pt.elem
    U, C = pt.upc(), pt.cxx()
    upc = lang == 'upc'
    if kind == 'td':
        # typedefs of the pointer type and of the shared type it points to (UPC only)
        if not upc:
            return []
        return [f'typedef {U}pt_{k};', f'typedef {pt.qual(1)} {e.c} sh_{k};']
    if kind == 'gp':
        return [f'static {U}gp_{k};'] if upc else [f'static thread_local {C} gp_{k};']
    if kind == 'gpa':
        return [f'static {U}gpa_{k}[3];'] if upc else [f'static thread_local {C} gpa_{k}[3];']
    if kind == 'phs':
        if upc:
            return [f'struct phold_{k} {{ {U}p; int pad; }};', f'static struct phold_{k} phs_{k}, pha_{k}[2];']
        return [f'struct phold_{k} {{ {C} p; int pad; }};', f'static thread_local phold_{k} phs_{k}, pha_{k}[2];']
    if kind == 'spab':
        return [f'{U}shared [2] spab_{k}[2 * THREADS];'] if upc else \
            [f'upc::shared_array<{C}, 2> spab_{k}(upc::per_thread(2));']
    if kind == 'hs2':
        return [f'shared struct hold_{k} hs2_{k}[2][THREADS];'] if upc else \
            [f'upc::shared_array2d<hold_{k}> hs2_{k}(2, upc::per_thread(1));']
    if kind == 'sspp':
        return [f'{U}shared *shared sspp_{k};'] if upc else [f'upc::shared<upc::sptr<{C}>> sspp_{k};']
    if kind == 'spa2':
        return [f'{U}shared spa2_{k}[2][THREADS];'] if upc else \
            [f'upc::shared_array2d<{C}> spa2_{k}(2, upc::per_thread(1));']
    if kind == 'sp':
        return [f'{U}shared sp_{k};'] if upc else [f'upc::shared<{C}> sp_{k};']
    if kind == 'spa':
        return [f'{U}shared spa_{k}[THREADS];'] if upc else [f'upc::shared_array<{C}> spa_{k}(upc::per_thread(1));']
    if kind == 'hs':
        if upc:
            return [f'struct hold_{k} {{ char tag; {U}p; long k; }};', f'shared struct hold_{k} hs_{k}[THREADS];']
        return [f'struct hold_{k} {{ char tag; {C} p; long k; }};',
                f'upc::shared_array<hold_{k}> hs_{k}(upc::per_thread(1));']
    T = e.c if upc else e.cx
    P = U if upc else C + ' '
    if kind == 'fid':
        return [f'static {P}fid_{k}({P}p) {{ return p; }}']
    if kind == 'foff':
        return [f'static {P}foff_{k}({P}p, int d) {{ return p + d; }}']
    if kind == 'fget':
        return [f'static {T} fget_{k}({P}p, int d) {{ return p[d]; }}']
    if kind == 'fset':
        return [f'static void fset_{k}({P}*pp, {P}v) {{ *pp = v; }}']
    if kind == 'fsetsh':
        if upc:
            return [f'static void fsetsh_{k}({U}shared *pp, {U}v) {{ *pp = v; }}']
        return [f'static void fsetsh_{k}(upc::sptr<{C}> pp, {C} v) {{ *pp = v; }}']
    if kind == 'fmk':
        if upc:
            return [f'static struct phold_{k} fmk_{k}({U}p) {{ struct phold_{k} h; h.p = p; h.pad = 7; return h; }}']
        return [f'static phold_{k} fmk_{k}({C} p) {{ phold_{k} h; h.p = p; h.pad = 7; return h; }}']
    raise ValueError(kind)


HELPER_ORDER = ['td', 'gp', 'gpa', 'phs', 'sp', 'spa', 'spa2', 'spab', 'sspp', 'hs', 'hs2', 'fid', 'foff', 'fget', 'fset', 'fsetsh', 'fmk']


def hs_init(pt, lang):
    k = pt.key
    lv = f'hs_{k}[MYTHREAD].k' if lang == 'upc' else f'hs_{k}[MYTHREAD].field(&hold_{k}::k)'
    return [f'{lv} = 1000 + MYTHREAD;']


def hs_verify(pt, lang):
    k = pt.key
    lv = f'hs_{k}[MYTHREAD].k' if lang == 'upc' else f'hs_{k}[MYTHREAD].field(&hold_{k}::k)'
    rv = lv if lang == 'upc' else f'upcd_v({lv})'
    return [f'if ({rv} != 1000 + MYTHREAD) {{', f'  pr_vl(c, "hs_{k}.k", MYTHREAD, {rv});',
            f'  {lv} = 1000 + MYTHREAD;', '}']


class Program:
    """The objects and cases of one seed. only: families to draw cases from."""

    def __init__(self, seed, ncases, only=None, nobjects=10, static_threads=None):
        self.seed = seed
        self.static_threads = static_threads
        rng = random.Random(f'{seed}:objects' + (f':T{static_threads}' if static_threads else ''))
        self.objects = make_objects(rng, nobjects, static_threads)
        if not any(isinstance(o, Arr2) and o.cols.k1 == 0 and o.block != STAR for o in self.objects):
            # rows cases need a 2-D array with constant rows of a definite layout
            self.objects.append(Arr2(len(self.objects) + 1, rng.choice(ELEMS), rng.choice([1, 2, 3]),
                                     Size(0, rng.randint(1, 2)), Size(rng.randint(2, 5), 0), 0))
            self.objects[-1].static_threads = static_threads
        if not any(o.elem == REC for o in self.objects):
            # member cases need a shared struct: one more array of them
            self.objects.append(Arr1(len(self.objects) + 1, REC, rng.choice([1, 2, 3]), Size(0, 2), 0))
            self.objects[-1].static_threads = static_threads
        self.gen = Generator(f'{seed}:T{static_threads}' if static_threads else seed, self.objects)
        fams = sorted(only) if only else sorted(FAMILIES)
        self.cases = []
        for cid in range(ncases):
            fam = random.Random(f'{seed}:family:{cid}').choice(fams)
            self.cases.append(self.gen.make_case(cid, fam))

    def atoms(self):
        """Every (case id, atom index)."""
        return [(c.cid, i) for c in self.cases for i in range(len(c.atoms))]

    def render(self, lang, keep=None):
        """The program's source; keep: set of (case id, atom index) to include (all when None)."""
        return self.render_with_map(lang, keep)[0]

    def render_with_map(self, lang, keep=None):
        """The source, and what each line comes from: {line number: (case id, atom index) or a use key
        ('obj:NAME', 'KIND:PTYPE')}, so that a compiler's error line names its atom or helper."""
        keep = set(self.atoms()) if keep is None else set(keep)
        cases = []
        uses = set()
        for c in self.cases:
            atoms = [(i, a) for i, a in enumerate(c.atoms) if (c.cid, i) in keep]
            if atoms:
                cases.append((c, atoms))
                for _, a in atoms:
                    uses |= a.uses
        objs = [o for o in self.objects if 'obj:' + o.name in uses]
        helpers = [(kind, self.gen.ptypes[key]) for kind in HELPER_ORDER
                   for key in sorted(self.gen.ptypes) if f'{kind}:{key}' in uses]
        out = (UPC_HEAD if lang == 'upc' else CXX_HEAD).splitlines() + \
            [f'/* generated by tests/upcc_diff/upcc_diff.py, seed {self.seed} */'] + COMMON.splitlines()
        origin = {}

        def add(lines, what):
            for x in lines:
                out.append(x)
                origin[len(out)] = what
        for o in objs:
            add(o.decl(lang), 'obj:' + o.name)
        for o in objs:
            if 'gi:' + o.name in uses:
                pt = o.ptype()
                src = o.ginit()[1]
                add([f'static {pt.upc()}gi_{o.name} = {src};' if lang == 'upc' else
                     f'static thread_local {pt.cxx()} gi_{o.name} = {src};'], 'gi:' + o.name)
        for kind, pt in helpers:
            add(helper(kind, pt, lang), f'{kind}:{pt.key}')
        for o in objs:
            add(o.rel_upc() if lang == 'upc' else o.rel_cxx(), 'obj:' + o.name)
        # verification after every case: each thread checks what it owns
        hs = [pt for kind, pt in helpers if kind == 'hs']
        out.append('static void verify_all(int c) {')
        for o in objs:
            add(['  {'] + ['    ' + x for x in o.verify(lang)] + ['  }'], 'obj:' + o.name)
        for pt in hs:
            add(['  ' + x for x in hs_verify(pt, lang)], 'hs:' + pt.key)
        out.append('  (void)c;')
        out.append('}')
        out.append('static void init_objects(void) {')
        for o in objs:
            add(['  {'] + ['    ' + x for x in o.init(lang)] + ['  }'], 'obj:' + o.name)
        for pt in hs:
            add(['  ' + x for x in hs_init(pt, lang)], 'hs:' + pt.key)
        out.append('}')
        for c, atoms in cases:
            for line, what in self.render_case(c, atoms, lang, origins=True):
                add([line], what)
        out.append('int main(int argc, char **argv) {' if lang == 'upc' else 'int upc_main(int argc, char **argv) {')
        out += ['  if (!open_transcript(argc, argv)) return 2;', '  init_objects();', '  upc_barrier;']
        for c, _ in cases:
            out.append(f'  case_{c.cid}(); upc_barrier; verify_all({c.cid}); upc_barrier;')
        out += ['  fprintf(out, "end\\n");', '  fclose(out);', '  return 0;', '}']
        return '\n'.join(out) + '\n', origin

    def render_case(self, c, atoms, lang, origins=False):
        """The case's function; with origins, (line, (case id, atom index) or None) pairs."""
        lines = [(f'/* case {c.cid}: {c.family}, {c.mode}' +
                  (f', thread {c.actor} % THREADS' if c.mode == 'actor' else '') + ' */', None),
                 (f'static void case_{c.cid}(void) {{', None)]
        nsteps = max(len(a.steps) for _, a in atoms)
        li = 0 if lang == 'upc' else 1
        ind = '  ' if c.mode == 'actor' else ''
        for s in range(nsteps):
            if s:
                lines.append(('  upc_barrier;', None))
            if c.mode == 'actor':
                lines.append((f'  if (MYTHREAD == {c.actor} % THREADS) {{', None))
            for i, a in atoms:
                if s < len(a.steps) and a.steps[s][li]:
                    w = (c.cid, i)
                    lines += [(f'{ind}  {{ /* atom {i} */', w)] + [(f'{ind}    {x}', w) for x in a.steps[s][li]] + \
                        [(f'{ind}  }}', w)]
            if c.mode == 'actor':
                lines.append(('  }', None))
        lines.append(('}', None))
        return lines if origins else [x for x, _ in lines]

    def case_text(self, cid, lang, keep=None):
        """The source of one case (for reports)."""
        c = self.cases[cid]
        atoms = [(i, a) for i, a in enumerate(c.atoms) if keep is None or (cid, i) in keep]
        return '\n'.join(self.render_case(c, atoms, lang)) if atoms else ''
