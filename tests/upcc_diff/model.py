"""The differential tester's model of UPC's shared types: element types, layouts,
index expressions valid at every THREADS, and the declared shared objects, each
able to write its declaration, initialisation and verification in UPC and in
upcemu's C++ API (include/upc/sptr.hpp, shared_array.hpp, shared_md.hpp).

Every object's elements hold values computed by the same C functions in both
programs (init_<elem>(object id, element id)), so any read can be printed and
compared; after each case every thread checks the elements it owns and prints
and restores any that a case changed."""
from dataclasses import dataclass, field

STAR = '*'  # the [*] layout of an array (block ceil(N / THREADS), here k for k*THREADS elements)


@dataclass(frozen=True)
class Elem:
    key: str   # in identifiers: c s i l d r
    c: str     # UPC spelling
    cx: str    # C++ spelling
    size: int
    kind: str  # 'int', 'float' or 'struct'

    def init_fn(self):
        return 'init_' + self.key


CHAR = Elem('c', 'char', 'char', 1, 'int')
SHORT = Elem('s', 'short', 'short', 2, 'int')
INT = Elem('i', 'int', 'int', 4, 'int')
LONG = Elem('l', 'long', 'long', 8, 'int')
DOUBLE = Elem('d', 'double', 'double', 8, 'float')
REC = Elem('r', 'struct rec', 'rec', 32, 'struct')
ELEMS = [CHAR, SHORT, INT, LONG, DOUBLE, REC]
# struct rec's members: name -> (element type, array length or None)
MEMBERS = {'a': (INT, None), 'c': (CHAR, None), 'd': (DOUBLE, None), 'arr': (SHORT, 3), 'l': (LONG, None)}


@dataclass(frozen=True)
class PType:
    """A pointer-to-shared type: [strict|relaxed] shared [block] elem *. block 0 is []
    (indefinite); 'dyn' is a pointer into a [*] array, which UPC cannot spell with a
    dynamic THREADS (upc::sptr<T, upc::dynamic_block> in C++)."""
    elem: Elem
    block: object
    cons: str = ''   # '', 'strict' or 'relaxed'

    @property
    def key(self):
        return self.elem.key + ('x' if self.block == 'dyn' else str(self.block)) + self.cons[:1]

    def spellable(self):
        return self.block != 'dyn'

    def qual(self, variant=0):
        """The qualifiers: [strict|relaxed] shared [B]."""
        c = self.cons + ' ' if self.cons else ''
        if self.block == 0:
            return f'{c}shared []'
        if self.block == 1:
            return f'{c}shared' if variant % 2 == 0 else f'{c}shared [1]'
        assert self.block != 'dyn', 'a pointer into a [*] array has no UPC spelling'
        return f'{c}shared [{self.block}]'

    def upc(self, variant=0):
        return f'{self.qual(variant)} {self.elem.c} *'

    def cxx(self):
        b = {0: 'upc::indefinite', 'dyn': 'upc::dynamic_block'}.get(self.block, str(self.block))
        c = f', upc::{self.cons}' if self.cons else ''
        return f'upc::sptr<{self.elem.cx}, {b}{c}>'


def cxx_cons(cons):
    return f', upc::{cons}' if cons else ''


def _term(coef, what):
    if coef == 1:
        return what
    return f'{coef} * {what}'


@dataclass(frozen=True)
class Form:
    """An index a + b*(THREADS-1) + sum(m * w): w are thread-valued expressions
    (MYTHREAD, (MYTHREAD + 1) % THREADS, ...) in [0, THREADS-1]. The generator
    keeps every index inside its object at every THREADS >= 1."""
    a: int
    b: int = 0
    terms: tuple = ()

    def is_const(self):
        return self.b == 0 and not self.terms

    def slopes(self):
        lo = self.b + sum(min(m, 0) for m, _ in self.terms)
        hi = self.b + sum(max(m, 0) for m, _ in self.terms)
        return lo, hi

    def fits(self, size):
        """Inside [0, size) at every THREADS (size a Size)."""
        lo, hi = self.slopes()
        if size.k1 == 0:
            return self.is_const() and 0 <= self.a < size.k0
        return lo >= 0 and 0 <= self.a and self.a <= size.k0 + size.k1 - 1 and hi <= size.k1

    def _merge(self, terms):
        acc = {}
        for m, w in terms:
            acc[w] = acc.get(w, 0) + m
        return tuple(sorted((m, w) for w, m in acc.items() if m != 0))

    def __add__(self, o):
        return Form(self.a + o.a, self.b + o.b, self._merge(self.terms + o.terms))

    def __neg__(self):
        return Form(-self.a, -self.b, tuple((-m, w) for m, w in self.terms))

    def __sub__(self, o):
        return self + (-o)

    def scale(self, k):
        return Form(self.a * k, self.b * k, tuple((m * k, w) for m, w in self.terms))

    def subst(self, w_from, w_to):
        return Form(self.a, self.b, self._merge(tuple((m, w_to if w == w_from else w) for m, w in self.terms)))

    def render(self):
        parts = []
        if self.a or (not self.b and not self.terms):
            parts.append(str(self.a))
        for coef, what in ([(self.b, '(THREADS - 1)')] if self.b else []) + [(m, f'({w})') for m, w in self.terms]:
            if coef < 0:
                parts.append('- ' + _term(-coef, what))
            else:
                parts.append(('+ ' if parts else '') + _term(coef, what))
        s = ' '.join(parts)
        if s.startswith('- '):
            s = '-' + s[2:]
        return s if self.is_const() and self.a >= 0 else f'({s})'


@dataclass(frozen=True)
class Size:
    """k0 + k1*THREADS elements (k0 alone for a constant size)."""
    k0: int
    k1: int

    def render(self, variant=0):
        if self.k1 == 0:
            return str(self.k0)
        t = 'THREADS' if self.k1 == 1 else (f'{self.k1} * THREADS' if variant % 2 == 0 else f'THREADS * {self.k1}')
        return t if self.k0 == 0 else f'({self.k0} + {t})'

    def min(self):
        return self.k0 + self.k1


def rand_form(rng, size, wexprs):
    """A random index inside size at every THREADS; wexprs: thread-valued
    expressions usable here."""
    a = rng.randrange(size.min())
    if size.k1 == 0 or rng.random() < 0.45:
        return Form(a)
    budget = size.k1
    b = rng.randint(0, budget)
    terms = []
    if wexprs and rng.random() < 0.6:
        w = rng.choice(wexprs)
        if b > 0 and rng.random() < 0.3:
            terms.append((-rng.randint(1, b), w))   # b*(T-1) - m*w stays >= 0
        elif budget - b > 0:
            terms.append((rng.randint(1, budget - b), w))
    f = Form(a, b, tuple(terms))
    assert f.fits(size), (f, size)
    return f


def value_print(elem, tag, upc_lv, cxx_lv):
    """Lines that print the value of a shared lvalue of elem type."""
    if elem.kind == 'int':
        return (f'pr_l("{tag}", (long)({upc_lv}));', f'pr_l("{tag}", (long)upcd_v({cxx_lv}));')
    if elem.kind == 'float':
        return (f'pr_d("{tag}", {upc_lv});', f'pr_d("{tag}", upcd_v({cxx_lv}));')
    return (f'pr_r("{tag}", {upc_lv});', f'pr_r("{tag}", upcd_v({cxx_lv}));')


def eq_expr(elem, lhs, rhs):
    """C (and C++) test that two values of elem type are equal."""
    return f'rec_eq({lhs}, {rhs})' if elem.kind == 'struct' else f'({lhs}) == ({rhs})'


class Obj:
    """A declared shared object (or family of objects: a directory of buffers)."""
    kind = ''
    static_threads = None   # the THREADS of upcc -T, when the program is compiled with one
    cons = ''               # declared strict or relaxed

    def __init__(self, oid, elem):
        self.oid = oid
        self.elem = elem
        self.name = f'{self.prefix}{oid}'

    # natural pointer type to its elements
    def ptype(self):
        raise NotImplementedError

    def void_param(self):
        return f'{self.cons} shared void *q' if self.cons else 'shared void *q'

    def rel_upc(self):
        return [f'static long rel_{self.name}({self.void_param()}) {{ return (long)upc_addrfield(q) - base_{self.name}; }}'] + \
            self.pp(self.void_param())

    def rel_cxx(self):
        return [f'static long rel_{self.name}(upc::sptr<void> q) {{ return (long)upc_addrfield(q) - base_{self.name}; }}'] + \
            self.pp('upc::sptr<void> q')

    def pp(self, param):
        """pp_<name>(tag, pointer): prints where a pointer into this object points."""
        return [f'static void pp_{self.name}(const char *tag, {param}) {{',
                f'  pr_p(tag, (long)upc_threadof(q), (long)upc_phaseof(q), rel_{self.name}(q));', '}']

    def verify_elem(self, lang, lv, ident, index_expr, owner_cond):
        """Lines checking one element (lv) against its initial value; prints and restores it."""
        init = f'{self.elem.init_fn()}({self.oid}, {ident})'
        cur = lv if lang == 'upc' else f'upcd_v({lv})'
        printer = {'int': 'pr_vl', 'float': 'pr_vd', 'struct': 'pr_vr'}[self.elem.kind]
        cast = '(long)' if self.elem.kind == 'int' else ''
        return [f'if ({owner_cond} && !({eq_expr(self.elem, cur, init)})) {{',
                f'  {printer}(c, "{self.name}", {index_expr}, {cast}{cur});',
                f'  {lv} = {init};',
                '}']


class Scalar(Obj):
    prefix = 's'
    kind = 'scalar'

    def __init__(self, oid, elem):
        super().__init__(oid, elem)
        self.size = Size(1, 0)

    def ptype(self):
        return PType(self.elem, 1, self.cons)

    def decl(self, lang):
        if lang == 'upc':
            return [f'{self.ptype().qual()} {self.elem.c} {self.name};', f'static long base_{self.name};']
        return [f'upc::shared<{self.elem.cx}{cxx_cons(self.cons)}> {self.name};', f'static thread_local long base_{self.name};']

    def init(self, lang):
        lv = self.name if lang == 'upc' else f'{self.name}.ref()'
        return [f'if (MYTHREAD == 0) {lv} = {self.elem.init_fn()}({self.oid}, 0);',
                f'base_{self.name} = (long)upc_addrfield(&{self.name});']

    def verify(self, lang):
        lv = self.name if lang == 'upc' else f'{self.name}.ref()'
        return self.verify_elem(lang, lv, '0', '0L', 'MYTHREAD == 0')

    def lvalue(self, pos):
        return self.name, f'{self.name}.ref()'

    def ginit(self):
        """(flat index, address expression) of the file-scope pointer gi_<name> = &element."""
        return 0, f'&{self.name}'

    def sources(self, pos):
        return [(f'&{self.name}', f'&{self.name}')]


class Arr1(Obj):
    """shared [B] T a[k*THREADS]; shared [] T a[n]; shared [*] T a[k*THREADS]."""
    prefix = 'a'
    kind = 'arr1'

    def __init__(self, oid, elem, block, size, spell):
        super().__init__(oid, elem)
        self.block, self.size, self.spell = block, size, spell

    def ptype(self):
        return PType(self.elem, 'dyn' if self.block == STAR else self.block, self.cons)

    def layout_block(self):
        """The block size in elements: for [*], ceil(elements / THREADS): k of k*THREADS
        elements, or (static THREADS) of a constant size."""
        if self.block != STAR:
            return self.block
        if self.size.k1:
            return self.size.k1
        return -(-self.size.k0 // self.static_threads)

    def qual(self):
        b = self.block
        c = self.cons + ' ' if self.cons else ''
        if b == 1:
            return c + ('shared' if self.spell % 2 == 0 else 'shared [1]')
        return c + ('shared []' if b == 0 else f'shared [{b}]')

    def cxx_block(self):
        return {0: 'upc::indefinite', STAR: 'upc::star'}.get(self.block, str(self.block))

    def cxx_extent(self, size):
        return f'upc::per_thread({size.k1})' if size.k1 else str(size.k0)

    def decl(self, lang):
        if lang == 'upc':
            return [f'{self.qual()} {self.elem.c} {self.name}[{self.size.render(self.spell)}];',
                    f'static long base_{self.name};']
        return [f'upc::shared_array<{self.elem.cx}, {self.cxx_block()}{cxx_cons(self.cons)}> {self.name}({self.cxx_extent(self.size)});',
                f'static thread_local long base_{self.name};']

    def n_expr(self):
        return self.size.render()

    def init(self, lang):
        n = self.n_expr()
        first = f'&{self.name}[0]' if lang == 'upc' else f'{self.name}.data()'
        return [f'if (MYTHREAD == 0) for (long i = 0; i < {n}; i++) {self.name}[i] = {self.elem.init_fn()}({self.oid}, i);',
                f'base_{self.name} = (long)upc_addrfield({first});']

    def verify(self, lang):
        n = self.n_expr()
        return [f'for (long i = 0; i < {n}; i++) {{'] + \
            ['  ' + x for x in self.verify_elem(lang, f'{self.name}[i]', 'i', 'i',
                                                f'upc_threadof(&{self.name}[i]) == (size_t)MYTHREAD')] + ['}']

    def lvalue(self, pos):
        return f'{self.name}[{pos.render()}]', f'{self.name}[{pos.render()}]'

    def ginit(self):
        if self.block == STAR:
            return None
        i = self.oid % self.size.min()
        return i, f'&{self.name}[{i}]'

    def sources(self, pos):
        i = pos.render()
        n = self.name
        return [(f'&{n}[{i}]', f'&{n}[{i}]'), (f'{n} + {i}', f'{n}.data() + {i}'),
                (f'&{n}[0] + {i}', f'&{n}[0] + {i}')]


class Arr2(Obj):
    """shared [B] T m[R][k*THREADS] or m[k*THREADS][C] (THREADS in one dimension),
    or shared [] T m[R][C]."""
    prefix = 'm'
    kind = 'arr2'

    def __init__(self, oid, elem, block, rows, cols, spell):
        super().__init__(oid, elem)
        self.block, self.rows, self.cols, self.spell = block, rows, cols, spell
        # flat size: one of rows/cols has a THREADS part
        if rows.k1:
            self.size = Size(0, rows.k1 * cols.k0)
        elif cols.k1:
            self.size = Size(0, rows.k0 * cols.k1)
        else:
            self.size = Size(rows.k0 * cols.k0, 0)

    ptype = Arr1.ptype
    qual = Arr1.qual
    cxx_block = Arr1.cxx_block
    cxx_extent = Arr1.cxx_extent

    layout_block = Arr1.layout_block

    def decl(self, lang):
        if lang == 'upc':
            return [f'{self.qual()} {self.elem.c} {self.name}[{self.rows.render(self.spell)}][{self.cols.render(self.spell)}];',
                    f'static long base_{self.name};']
        return [f'upc::shared_array2d<{self.elem.cx}, {self.cxx_block()}{cxx_cons(self.cons)}> {self.name}('
                f'{self.cxx_extent(self.rows)}, {self.cxx_extent(self.cols)});',
                f'static thread_local long base_{self.name};']

    def init(self, lang):
        r, c = self.rows.render(), self.cols.render()
        first = f'&{self.name}[0][0]' if lang == 'upc' else f'{self.name}.data()'
        return [f'if (MYTHREAD == 0) for (long i = 0; i < {r}; i++) for (long j = 0; j < {c}; j++)',
                f'  {self.name}[i][j] = {self.elem.init_fn()}({self.oid}, i * {c} + j);',
                f'base_{self.name} = (long)upc_addrfield({first});']

    def verify(self, lang):
        r, c = self.rows.render(), self.cols.render()
        return [f'for (long i = 0; i < {r}; i++) for (long j = 0; j < {c}; j++) {{'] + \
            ['  ' + x for x in self.verify_elem(lang, f'{self.name}[i][j]', f'i * {c} + j', f'i * {c} + j',
                                                f'upc_threadof(&{self.name}[i][j]) == (size_t)MYTHREAD')] + ['}']

    def flat(self, r, c):
        """The flat index of [r][c] (r, c Forms)."""
        if self.cols.k1:   # columns k*THREADS: r is a constant
            assert r.is_const()
            return Form(r.a * self.cols.k1) + Form(0, r.a * self.cols.k1) + c
        return r.scale(self.cols.k0) + c

    def rand_rc(self, rng, wexprs):
        return rand_form(rng, self.rows if self.cols.k1 == 0 else Size(self.rows.k0, 0), wexprs), \
            rand_form(rng, self.cols, wexprs)

    def lvalue_rc(self, r, c):
        return f'{self.name}[{r.render()}][{c.render()}]', f'{self.name}[{r.render()}][{c.render()}]'

    def ginit(self):
        if self.block == STAR:
            return None
        c = self.oid % self.cols.min()
        return c, f'&{self.name}[0][{c}]'

    def lvalue(self, pos):
        # a flat index: through the first element's pointer
        return f'(&{self.name}[0][0])[{pos.render()}]', f'(&{self.name}[0][0])[{pos.render()}]'

    def sources_rc(self, r, c):
        n, rr, cc = self.name, r.render(), c.render()
        return [(f'&{n}[{rr}][{cc}]', f'&{n}[{rr}][{cc}]'), (f'{n}[{rr}] + {cc}', f'{n}[{rr}].data() + {cc}'),
                (f'&{n}[{rr}][0] + {cc}', f'&{n}[{rr}][0] + {cc}')]

    def sources(self, pos):
        n, i = self.name, pos.render()
        return [(f'&{n}[0][0] + {i}', f'{n}.data() + {i}'), (f'{n}[0] + {i}', f'{n}[0].data() + {i}')]


class Dir(Obj):
    """shared [] T *shared d[THREADS]: every thread's entry points to its own
    upc_alloc'ed buffer of L elements (element id t*L + j)."""
    prefix = 'd'
    kind = 'dir'

    def __init__(self, oid, elem, length):
        super().__init__(oid, elem)
        self.length = length
        self.size = Size(length, 0)   # one buffer

    def ptype(self):
        return PType(self.elem, 0)

    def decl(self, lang):
        e, n, L = self.elem, self.name, self.length
        if lang == 'upc':
            return [f'shared [] {e.c} *shared {n}[THREADS];', f'shared long dbase_{n}[THREADS];',
                    f'static {e.c} *mine_{n};', f'static shared [] {e.c} *own_{n};']
        return [f'upc::shared_array<upc::sptr<{e.cx}, upc::indefinite>> {n}(upc::per_thread(1));',
                f'upc::shared_array<long> dbase_{n}(upc::per_thread(1));',
                f'static thread_local {e.cx} *mine_{n};', f'static thread_local upc::sptr<{e.cx}, upc::indefinite> own_{n};']

    def rel_upc(self):
        return [f'static long rel_{self.name}(shared void *q) {{ return (long)upc_addrfield(q) - dbase_{self.name}[upc_threadof(q)]; }}'] + \
            self.pp('shared void *q')

    def rel_cxx(self):
        return [f'static long rel_{self.name}(upc::sptr<void> q) {{ return (long)upc_addrfield(q) - dbase_{self.name}[upc_threadof(q)]; }}'] + \
            self.pp('upc::sptr<void> q')

    def init(self, lang):
        e, n, L = self.elem, self.name, self.length
        if lang == 'upc':
            alloc = f'own_{n} = (shared [] {e.c} *)upc_alloc({L} * sizeof({e.c}));'
            priv = f'mine_{n} = ({e.c} *)own_{n};'
        else:
            alloc = f'own_{n} = upc_alloc({L} * sizeof({e.cx}));'
            priv = f'mine_{n} = own_{n}.local();'
        return [alloc, priv,
                f'for (long j = 0; j < {L}; j++) mine_{n}[j] = {e.init_fn()}({self.oid}, MYTHREAD * {L} + j);',
                f'dbase_{n}[MYTHREAD] = (long)upc_addrfield(own_{n});',
                f'{n}[MYTHREAD] = own_{n};']

    def verify(self, lang):
        n, L = self.name, self.length
        slot = f'{n}[MYTHREAD]' if lang == 'upc' else f'upcd_v({n}[MYTHREAD])'
        lines = [f'for (long j = 0; j < {L}; j++) {{'] + \
            ['  ' + x for x in self.verify_elem(lang, f'mine_{n}[j]', f'MYTHREAD * {L} + j', 'j', '1')] + ['}']
        # the entry itself: a wrong write through d[t][j] may land in it
        lines += [f'if ({slot} != own_{n} || upc_phaseof({slot}) != 0) {{',
                  f'  pr_vl(c, "{n}.entry", MYTHREAD, 1);',
                  f'  {n}[MYTHREAD] = own_{n};',
                  '}']
        return lines

    def lvalue_tj(self, t, j):
        return f'{self.name}[{t.render()}][{j.render()}]', f'upcd_v({self.name}[{t.render()}])[{j.render()}]'

    def sources_tj(self, t, j):
        n, tt, jj = self.name, t.render(), j.render()
        return [(f'{n}[{tt}] + {jj}', f'upcd_v({n}[{tt}]) + {jj}'),
                (f'&{n}[{tt}][{jj}]', f'&upcd_v({n}[{tt}])[{jj}]'),
                (f'*({n} + {tt}) + {jj}', f'upcd_v(*({n}.data() + {tt})) + {jj}')]


class AllAlloc(Obj):
    """shared [B] T *p = (shared [B] T *)upc_all_alloc(nblocks, B * sizeof(T)): a
    private pointer (the same value on every thread) to nblocks*B elements."""
    prefix = 'h'
    kind = 'allalloc'

    def __init__(self, oid, elem, block, nblocks, spell):
        super().__init__(oid, elem)
        self.block, self.nblocks, self.spell = block, nblocks, spell
        self.size = Size(nblocks.k0 * block, nblocks.k1 * block)

    def ptype(self):
        return PType(self.elem, self.block, self.cons)

    def layout_block(self):
        return self.block

    def decl(self, lang):
        pt = self.ptype()
        if lang == 'upc':
            return [f'static {pt.upc(self.spell)}{self.name};', f'static long base_{self.name};']
        return [f'static thread_local {pt.cxx()} {self.name};', f'static thread_local long base_{self.name};']

    def init(self, lang):
        pt, e, n = self.ptype(), self.elem, self.name
        call = f'upc_all_alloc({self.nblocks.render(self.spell)}, {self.block} * sizeof({e.c if lang == "upc" else e.cx}))'
        lines = [f'{n} = ({pt.upc(self.spell)})' + call + ';' if lang == 'upc' else f'{n} = {call};']
        lines += [f'if (MYTHREAD == 0) for (long i = 0; i < {self.size.render()}; i++) {n}[i] = {e.init_fn()}({self.oid}, i);',
                  f'base_{n} = (long)upc_addrfield({n});']
        return lines

    def verify(self, lang):
        n = self.name
        return [f'for (long i = 0; i < {self.size.render()}; i++) {{'] + \
            ['  ' + x for x in self.verify_elem(lang, f'{n}[i]', 'i', 'i', f'upc_threadof({n} + i) == (size_t)MYTHREAD')] + ['}']

    def lvalue(self, pos):
        return f'{self.name}[{pos.render()}]', f'{self.name}[{pos.render()}]'

    def sources(self, pos):
        n, i = self.name, pos.render()
        return [(f'{n} + {i}', f'{n} + {i}'), (f'&{n}[{i}]', f'&{n}[{i}]')]


def make_objects(rng, count, static_threads=None):
    """A random set of declared objects covering every kind. With a static THREADS
    (upcc -T N), definite-block arrays may have constant sizes and indefinite ones
    THREADS in a dimension (UPC 1.3 6.5.1.1: allowed only there)."""
    objs = []
    kinds = ['scalar', 'arr1', 'arr1', 'arr2', 'dir', 'allalloc']
    # every kind at least once, then random ones
    order = kinds + [rng.choice(kinds + ['arr1']) for _ in range(max(0, count - len(kinds)))]
    static = static_threads is not None
    for oid, kind in enumerate(order, start=1):
        elem = rng.choice(ELEMS)
        spell = rng.randrange(4)
        if kind == 'scalar':
            objs.append(Scalar(oid, elem))
        elif kind == 'arr1':
            block = rng.choice([1, 1, 2, 3, 4, 5, 8, 0, STAR])
            constant = block == 0 if not static else rng.random() < 0.5
            size = Size(rng.randint(3, 20 if static else 12), 0) if constant else Size(0, rng.randint(1, 6))
            objs.append(Arr1(oid, elem, block, size, spell))
        elif kind == 'arr2':
            block = rng.choice([1, 2, 3, 5, 0, STAR])
            constant = block == 0 if not static else rng.random() < 0.4
            if constant:
                rows, cols = Size(rng.randint(2, 4), 0), Size(rng.randint(2, 5), 0)
            elif rng.random() < 0.5:
                rows, cols = Size(rng.randint(2, 4), 0), Size(0, rng.randint(1, 3))
            else:
                rows, cols = Size(0, rng.randint(1, 2)), Size(rng.randint(2, 5), 0)
            objs.append(Arr2(oid, elem, block, rows, cols, spell))
        elif kind == 'dir':
            objs.append(Dir(oid, elem, rng.randint(2, 8)))
        else:
            block = rng.choice([1, 2, 3, 4])
            nb = Size(0, rng.randint(1, 3)) if rng.random() < 0.7 else Size(rng.randint(2, 6), 0)
            objs.append(AllAlloc(oid, elem, block, nb, spell))
        objs[-1].static_threads = static_threads
        if kind != 'dir' and rng.random() < 0.15:
            objs[-1].cons = rng.choice(['strict', 'strict', 'relaxed'])
    return objs
