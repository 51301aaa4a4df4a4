"""Random cases over pointers-to-shared, written twice: in UPC (for upcc) and in
upcemu's C++ API (the reference). A case is a function that every thread calls;
it holds atoms, independent groups of statements that print tagged values
(case.atom.n) into the thread's transcript. The minimiser drops cases and atoms.

A pointer value known to the generator (Ptr) carries where it points: an element
of a declared object (frame 'obj'), an element of one thread's buffer of a
directory ('buf'), a run of elements on one thread reached through a
shared [] cast ('run'), a member of a shared struct ('mem'), or nowhere the
generator follows after a cast to another layout ('opaque': printed, and read
in place only). Every index and offset is an expression valid at any THREADS."""
import random
from dataclasses import dataclass, field, replace

from model import (CHAR, DOUBLE, ELEMS, INT, LONG, MEMBERS, REC, SHORT, STAR, Arr1, Arr2, Dir, Form, PType, Size,
                   rand_form, value_print)

FAMILIES = {
    'index': 'p[k] and k[p] on every layout and storage',
    'deref': '*p, *(p + k), *(k + p), *(p - k)',
    'arith': 'p + k, k + p, p - k (offsets of several integer types), p - q, c ? p : q, loops stepping a pointer',
    'incdec': '++ and -- (pre and post), += and -=, *p++ and *++p on pointers in every kind of storage',
    'compare': '== != < > <= >= between pointers-to-shared, and against NULL',
    'cast': 'casts between pointer-to-shared types (UPC 1.3 6.4.3 phase rules), shared void *, upc_resetphase',
    'member': '. and -> on shared structs, & of members (shared [] T *), array members',
    'storage': 'pointers-to-shared kept in private and shared variables, arrays, struct members',
    'dir': 'shared [] T *shared d[THREADS] and shared T *shared a[THREADS]: d[t][j], published pointers',
    'func': 'pointers-to-shared as function arguments and results',
    'sizeof': 'sizeof, upc_blocksizeof, upc_elemsizeof, upc_localsizeof',
    'query': 'upc_threadof, upc_phaseof, upc_addrfield on every kind of pointer expression',
    'write': 'assignments and every compound assignment through pointers-to-shared, members included',
    'forall': 'upc_forall with a pointer-to-shared affinity (p + k, &p[k], k + p, upc_threadof(p + k))',
    'rows': 'pointers to rows of 2-D shared arrays, shared [B] T (*p)[C]: p[i][j], p + i, p - q, sizeof *p',
}
THREAD_EXPRS = ['MYTHREAD', '(MYTHREAD + 1) % THREADS', '(THREADS - 1 - MYTHREAD)', '(2 * MYTHREAD) % THREADS']


@dataclass
class Ptr:
    pt: PType
    obj: object
    frame: str            # obj | buf | run | mem | opaque
    pos: Form = None      # element (obj: flat index; buf: index in the buffer; run: flat; mem: member index)
    t: Form = None        # buf: the buffer's thread
    lo: int = 0           # run / mem: the reachable range of pos
    hi: int = 0
    at_elem: bool = False  # opaque: still at the start of an element of obj (readable in place)
    upc: str = ''
    cxx: str = ''

    def expr(self, upc, cxx):
        return replace(self, upc=upc, cxx=cxx)

    def derefable(self):
        return self.frame != 'opaque' or self.at_elem

    def movable(self):
        return self.frame != 'opaque'


@dataclass
class Atom:
    steps: list          # per step: (upc lines, cxx lines)
    uses: set


@dataclass
class Case:
    cid: int
    family: str
    mode: str            # all | actor | publish
    actor: int
    atoms: list
    published: set = field(default_factory=set)   # publish slots taken by its atoms


class Skip(Exception):
    """This atom cannot be built from what the program declares."""


class AtomBuilder:
    def __init__(self, gen, case, aidx, rng, mode):
        self.gen, self.case, self.aidx, self.rng, self.mode = gen, case, aidx, rng, mode
        self.steps = [([], [])]
        self.step = 0
        self.uses = set()
        self.nprint = 0
        self.nvar = 0
        self.wexprs = ['MYTHREAD'] if mode == 'publish' else THREAD_EXPRS
        self.at_end = []   # statements that close the atom (restoring what it borrowed)
        self.taken = set()  # (place, pointer type) written by this atom

    # -- output ----------------------------------------------------------
    def emit(self, upc, cxx=None):
        self.steps[self.step][0].append(upc)
        self.steps[self.step][1].append(upc if cxx is None else cxx)

    def next_step(self):
        self.steps.append(([], []))
        self.step += 1

    def tag(self):
        self.nprint += 1
        return f'{self.case.cid}.{self.aidx}.{self.nprint}'

    def comment(self, text):
        self.emit(f'/* {text} */')

    def print_long(self, upc_expr, cxx_expr=None):
        t = self.tag()
        self.emit(f'pr_l("{t}", (long)({upc_expr}));', f'pr_l("{t}", (long)({cxx_expr or upc_expr}));')

    def print_value(self, elem, upc_lv, cxx_lv):
        u, c = value_print(elem, self.tag(), upc_lv, cxx_lv)
        self.emit(u, c)

    def print_ptr(self, p, inline=False):
        """thread, phase and address (relative to the object) of a pointer value: through
        the object's pp_ function (a conversion to shared void * at a call), or inline
        with upc_threadof / upc_phaseof / upc_addrfield applied to the expression itself."""
        self.use_obj(p.obj)
        t = self.tag()
        if inline:
            fmt = 'pr_p("{t}", (long)upc_threadof({e}), (long)upc_phaseof({e}), rel_{o}({e}));'
        else:
            fmt = 'pp_{o}("{t}", {e});'
        self.emit(fmt.format(t=t, e=p.upc, o=p.obj.name), fmt.format(t=t, e=p.cxx, o=p.obj.name))

    def use_obj(self, obj):
        self.uses.add('obj:' + obj.name)

    def use(self, what, pt):
        self.uses.add(f'{what}:{pt.key}')
        self.gen.ptypes[pt.key] = pt

    def spell(self, pt):
        """How this declaration or cast spells pt in UPC: shared [B] T * (either way for
        B = 1), the pointer typedef pt_K, or the shared type's typedef sh_K *."""
        r = self.rng.randrange(8)
        if not pt.spellable() or r < 5:
            return pt.upc(r)
        self.use('td', pt)
        return f'pt_{pt.key} ' if r < 7 else f'sh_{pt.key} *'

    def var(self, pt, init=None, prefix='v'):
        """A private variable of pointer type pt, declared here."""
        self.nvar += 1
        name = f'{prefix}{self.nvar}'
        if init is None:
            self.emit(f'{self.spell(pt)}{name};', f'{pt.cxx()} {name};')
        else:
            self.emit(f'{self.spell(pt)}{name} = {init.upc};', f'{pt.cxx()} {name} = {init.cxx};')
        return name

    # -- pointer values --------------------------------------------------
    def pick_obj(self, want=None):
        objs = [o for o in self.gen.objects if want is None or want(o)]
        if not objs:
            raise Skip()
        return self.rng.choice(objs)

    def base_ptr(self, obj=None):
        """A pointer to an element of a declared object, written as UPC would."""
        rng = self.rng
        obj = obj or self.pick_obj()
        self.use_obj(obj)
        pt = obj.ptype()
        if isinstance(obj, Dir):
            t = rand_form(rng, Size(0, 1), self.wexprs)
            j = Form(rng.randrange(obj.length))
            u, c = rng.choice(obj.sources_tj(t, j))
            return Ptr(pt, obj, 'buf', pos=j, t=t, upc=u, cxx=c)
        gi = obj.ginit() if hasattr(obj, 'ginit') else None
        if gi and rng.random() < 0.15:
            # a file-scope private pointer initialised with the element's address
            self.uses.add('gi:' + obj.name)
            return Ptr(pt, obj, 'obj', pos=Form(gi[0]), upc=f'gi_{obj.name}', cxx=f'gi_{obj.name}')
        if isinstance(obj, Arr2) and rng.random() < 0.7:
            r, col = obj.rand_rc(rng, self.wexprs)
            u, c = rng.choice(obj.sources_rc(r, col))
            return Ptr(pt, obj, 'obj', pos=obj.flat(r, col), upc=u, cxx=c)
        pos = rand_form(rng, obj.size, self.wexprs)
        u, c = rng.choice(obj.sources(pos))
        return Ptr(pt, obj, 'obj', pos=pos, upc=u, cxx=c)

    def retarget(self, p):
        """A new position in p's frame and the offset (Form) that reaches it."""
        rng = self.rng
        if p.frame == 'obj':
            new = rand_form(rng, p.obj.size, self.wexprs if self.mode != 'publish' else ['MYTHREAD'])
        elif p.frame == 'buf':
            new = Form(rng.randrange(p.obj.length))
        elif p.frame in ('run', 'mem'):
            new = Form(rng.randint(p.lo, p.hi))
        else:
            raise Skip()
        return new, new - p.pos

    def valid(self, p, pos):
        """Whether pos is inside p's frame at every THREADS."""
        if p.frame == 'obj':
            return pos.fits(p.obj.size)
        if p.frame == 'buf':
            return pos.is_const() and 0 <= pos.a < p.obj.length
        if p.frame in ('run', 'mem'):
            return pos.is_const() and p.lo <= pos.a <= p.hi
        return False

    def moved(self, p, new, upc, cxx):
        return replace(p, pos=new, upc=upc, cxx=cxx)

    def plus(self, p, new, delta):
        """p + delta in one of C's spellings, the offset sometimes of another integer type."""
        d = delta.render()
        lo, _ = delta.slopes()
        if self.rng.random() < 0.3:
            types = ['long', 'short', 'int']
            if delta.a >= 0 and lo >= 0:
                types += ['size_t', 'unsigned', 'unsigned long'] + (['char'] if delta.is_const() and delta.a < 100 else [])
            d = f'({self.rng.choice(types)})' + (d if d.startswith('(') else f'({d})')
            return self.moved(p, new, f'({p.upc}) + {d}', f'({p.cxx}) + {d}')
        forms = [(f'({p.upc}) + {d}', f'({p.cxx}) + {d}'), (f'{d} + ({p.upc})', f'{d} + ({p.cxx})'),
                 (f'({p.upc}) - {(-delta).render()}', f'({p.cxx}) - {(-delta).render()}')]
        u, c = self.rng.choice(forms)
        return self.moved(p, new, u, c)

    def slot_kinds(self, pt, for_publish=False):
        if not pt.spellable():
            return []
        if for_publish:
            return ['spa', 'hs']
        if self.mode == 'publish':
            # the shared places are the published ones: one per atom, all written before any is read
            return ['local', 'local', 'static', 'gp', 'gpa', 'phs', 'pha']
        kinds = ['local', 'local', 'static', 'gp', 'gpa', 'phs', 'pha', 'spa', 'hs', 'spp', 'spa2', 'hsw', 'hsr', 'spab', 'hs2']
        if self.mode == 'actor':
            kinds += ['sp', 'spa', 'hs', 'sspp']
            if any(isinstance(o, Dir) and o.ptype() == pt for o in self.gen.objects):
                kinds.append('dir')
        return kinds

    def slot(self, kind, pt, thread=None):
        """(upc lvalue, cxx lvalue, cxx rvalue) of a place that holds a pointer of type pt."""
        k = pt.key
        rng = self.rng
        if kind == 'local':
            name = self.var(pt)
            return name, name, name
        self.use(kind, pt)
        if kind == 'gp':
            return f'gp_{k}', f'gp_{k}', f'gp_{k}'
        if kind == 'gpa':
            i = rng.randrange(3)
            return f'gpa_{k}[{i}]', f'gpa_{k}[{i}]', f'gpa_{k}[{i}]'
        if kind == 'phs':
            if rng.random() < 0.5:
                return f'phs_{k}.p', f'phs_{k}.p', f'phs_{k}.p'
            return f'(&phs_{k})->p', f'(&phs_{k})->p', f'(&phs_{k})->p'
        if kind == 'static':
            # a block-scope static: one per thread, as every private static
            self.nvar += 1
            name = f'st{self.nvar}'
            self.emit(f'static {self.spell(pt)}{name};', f'static thread_local {pt.cxx()} {name};')
            return name, name, name
        if kind == 'pha':
            # a member of an element of a private array of structs
            self.use('phs', pt)
            i = rng.randrange(2)
            return f'pha_{k}[{i}].p', f'pha_{k}[{i}].p', f'pha_{k}[{i}].p'
        if kind == 'sp':
            return f'sp_{k}', f'sp_{k}.ref()', f'upcd_v(sp_{k}.ref())'
        t = thread if thread is not None else ('MYTHREAD' if self.mode != 'actor' else
                                               rand_form(rng, Size(0, 1), self.wexprs).render())
        if kind == 'spa':
            if rng.random() < 0.2:
                return f'*(spa_{k} + {t})', f'*(spa_{k}.data() + {t})', f'upcd_v(*(spa_{k}.data() + {t}))'
            return f'spa_{k}[{t}]', f'spa_{k}[{t}]', f'upcd_v(spa_{k}[{t}])'
        if kind == 'hs':
            r = rng.randrange(3)
            if r == 0:
                lv = f'((&hs_{k}[{t}])->*&hold_{k}::p)'
                return f'(&hs_{k}[{t}])->p', lv, f'upcd_v({lv})'
            if r == 1:
                lv = f'(*&hs_{k}[{t}]).field(&hold_{k}::p)'
                return f'(*&hs_{k}[{t}]).p', lv, f'upcd_v({lv})'
            lv = f'hs_{k}[{t}].field(&hold_{k}::p)'
            return f'hs_{k}[{t}].p', lv, f'upcd_v({lv})'
        if kind == 'spab':
            # shared [2] T *shared a[2*THREADS]: the array of pointers is blocked itself
            self.use('spab', pt)
            i = f'2 * ({t}) + {rng.randrange(2)}'
            return f'spab_{k}[{i}]', f'spab_{k}[{i}]', f'upcd_v(spab_{k}[{i}])'
        if kind == 'hs2':
            # a member of an element of a 2-D shared array of structs
            self.use('hs2', pt)
            self.use('hs', pt)   # the struct's definition
            i = rng.randrange(2)
            return (f'hs2_{k}[{i}][{t}].p', f'hs2_{k}[{i}][{t}].field(&hold_{k}::p)',
                    f'upcd_v(hs2_{k}[{i}][{t}].field(&hold_{k}::p))')
        if kind == 'sspp':
            # through a shared pointer to a shared pointer-to-shared: *sq where sq = &a[t]
            self.use('sspp', pt)
            self.use('spa', pt)
            self.emit(f'sspp_{k} = &spa_{k}[{t}];', f'sspp_{k} = &spa_{k}[{t}];')
            lv = f'*sspp_{k}' if rng.random() < 0.5 else f'sspp_{k}[0]'
            lc = f'(*upcd_v(sspp_{k}.ref()))' if lv.startswith('*') else f'upcd_v(sspp_{k}.ref())[0]'
            return lv, lc, f'upcd_v({lc})'
        if kind == 'spa2':
            # shared T *shared a2[2][THREADS]: a[i][t] is the place, a[i][t][j] an element it points to
            i = rng.randrange(2)
            return f'spa2_{k}[{i}][{t}]', f'spa2_{k}[{i}][{t}]', f'upcd_v(spa2_{k}[{i}][{t}])'
        if kind == 'spp':
            # through a private pointer to a shared pointer-to-shared: shared T *shared *pp = &a[t]
            self.use('spa', pt)
            self.nvar += 1
            pp = f'pp{self.nvar}'
            self.emit(f'{self.spell(pt)}shared *{pp} = &spa_{k}[{t}];', f'upc::sptr<{pt.cxx()}> {pp} = &spa_{k}[{t}];')
            lv = f'*{pp}' if rng.random() < 0.5 else f'{pp}[0]'
            return lv, lv, f'upcd_v({lv})'
        if kind == 'dir':
            # a directory's entry, restored at the end of the atom
            d = rng.choice([o for o in self.gen.objects if isinstance(o, Dir) and o.ptype() == pt])
            self.use_obj(d)
            self.nvar += 1
            saved = f'sv{self.nvar}'
            self.emit(f'{self.spell(pt)}{saved} = {d.name}[{t}];', f'{pt.cxx()} {saved} = upcd_v({d.name}[{t}]);')
            self.at_end.append((f'{d.name}[{t}] = {saved};', f'{d.name}[{t}] = {saved};'))
            return f'{d.name}[{t}]', f'{d.name}[{t}]', f'upcd_v({d.name}[{t}])'
        raise ValueError(kind)

    def store(self, p, kind=None, thread=None):
        """Stores p in a slot and returns the pointer read back from it."""
        kinds = self.slot_kinds(p.pt)
        if not kinds:
            raise Skip()
        kind = kind or self.rng.choice(kinds)
        # a place written twice in one atom would change what an earlier pointer
        # expression reading it yields: each shared or global place once per atom
        place = {'hsw': 'hs', 'hsr': 'hs', 'spp': 'spa', 'sspp': 'spa'}.get(kind, kind)
        if place not in ('local', 'static', 'const'):
            if (place, p.pt.key) in self.taken or (kind == 'sspp' and ('sspp', p.pt.key) in self.taken):
                raise Skip()
            self.taken.add((place, p.pt.key))
            self.taken.add((kind, p.pt.key))
        if kind in ('hsw', 'hsr', 'const'):
            return self.store_whole(p, kind)
        if kind == 'local' and self.rng.random() < 0.5:
            name = self.var(p.pt, init=p)
            return p.expr(name, name)
        ul, cl, cr = self.slot(kind, p.pt, thread)
        how = self.rng.randrange(4)
        if how == 0 and kind in ('local', 'gp', 'gpa', 'phs'):
            self.use('fset', p.pt)
            self.emit(f'fset_{p.pt.key}(&{ul}, {p.upc});', f'fset_{p.pt.key}(&{cl}, {p.cxx});')
        elif how == 0 and kind in ('spa', 'sp', 'dir') and not ul.startswith('*'):
            self.use('fsetsh', p.pt)
            self.emit(f'fsetsh_{p.pt.key}(&{ul}, {p.upc});', f'fsetsh_{p.pt.key}(&{cl}, {p.cxx});')
        elif how == 1:
            # the assignment's value, kept in a variable too
            self.nvar += 1
            t = f'x{self.nvar}'
            self.emit(f'{self.spell(p.pt)}{t} = ({ul} = {p.upc});', f'{p.pt.cxx()} {t} = upcd_v({cl} = {p.cxx});')
            if self.rng.random() < 0.5:
                return p.expr(t, t)
        else:
            self.emit(f'{ul} = {p.upc};', f'{cl} = {p.cxx};')
        return p.expr(ul, cr)

    def store_whole(self, p, kind):
        """A pointer kept in a struct copied whole to (hsw) or from (hsr) a shared struct,
        or in a pointer to const (const)."""
        k, rng = p.pt.key, self.rng
        self.nvar += 1
        hv = f'hv{self.nvar}'
        if kind == 'const':
            ctype = p.pt.cxx().replace('upc::sptr<', 'upc::sptr<const ', 1)
            self.emit(f'const {p.pt.upc(rng.randrange(2))}{hv} = {p.upc};', f'{ctype} {hv} = {p.cxx};')
            return p.expr(hv, hv)
        self.use('hs', p.pt)
        t = 'MYTHREAD' if self.mode != 'actor' else rand_form(rng, Size(0, 1), self.wexprs).render()
        if kind == 'hsw':
            self.emit(f'struct hold_{k} {hv};', f'hold_{k} {hv}{{}};')
            self.emit(f"{hv}.tag = 'w';")
            self.emit(f'{hv}.p = {p.upc};', f'{hv}.p = {p.cxx};')
            self.emit(f'{hv}.k = 1000 + ({t});')
            self.emit(f'hs_{k}[{t}] = {hv};')
            if rng.random() < 0.5:
                return p.expr(f'hs_{k}[{t}].p', f'upcd_v(hs_{k}[{t}].field(&hold_{k}::p))')
            return p.expr(f'(&hs_{k}[{t}])->p', f'upcd_v((&hs_{k}[{t}])->*&hold_{k}::p)')
        self.emit(f'hs_{k}[{t}].p = {p.upc};', f'hs_{k}[{t}].field(&hold_{k}::p) = {p.cxx};')
        self.emit(f'struct hold_{k} {hv} = hs_{k}[{t}];', f'hold_{k} {hv} = upcd_v(hs_{k}[{t}]);')
        return p.expr(f'{hv}.p', f'{hv}.p')

    def through_func(self, p):
        if not p.pt.spellable():
            raise Skip()
        self.use('fid', p.pt)
        k = p.pt.key
        if self.rng.random() < 0.5 and p.movable():
            self.use('foff', p.pt)
            new, delta = self.retarget(p)
            return self.moved(p, new, f'foff_{k}({p.upc}, {delta.render()})', f'foff_{k}({p.cxx}, {delta.render()})')
        if self.rng.random() < 0.3:
            self.use('fmk', p.pt)
            self.use('phs', p.pt)
            return p.expr(f'fmk_{k}({p.upc}).p', f'fmk_{k}({p.cxx}).p')
        return p.expr(f'fid_{k}({p.upc})', f'fid_{k}({p.cxx})')

    def through_void(self, p):
        if not p.pt.spellable():
            raise Skip()
        u = f'({self.spell(p.pt)})(shared void *)({p.upc})'
        c = f'static_cast<{p.pt.cxx()}>(static_cast<upc::sptr<void>>({p.cxx}))'
        return p.expr(u, c)

    def pointer(self, obj=None, depth=None, want=None):
        """A random pointer expression to an element of obj (or of a random object)."""
        if obj is None and want is not None:
            obj = self.pick_obj(want)
        p = self.base_ptr(obj)
        depth = self.rng.choice([0, 1, 1, 2]) if depth is None else depth
        for _ in range(depth):
            step = self.rng.choice(['arith', 'slot', 'slot', 'func', 'void', 'cond'])
            try:
                if step == 'arith':
                    new, delta = self.retarget(p)
                    p = self.plus(p, new, delta)
                elif step == 'cond':
                    # c ? p : q with two pointers of one type (the condition holds)
                    new, delta = self.retarget(p)
                    q = self.plus(p, new, delta)
                    if self.rng.random() < 0.5:
                        p = p.expr(f'(MYTHREAD >= 0 ? {p.upc} : {q.upc})', f'(MYTHREAD >= 0 ? {p.cxx} : {q.cxx})')
                    else:
                        p = p.expr(f'(THREADS < 1 ? {q.upc} : {p.upc})', f'(THREADS < 1 ? {q.cxx} : {p.cxx})')
                elif step == 'slot':
                    p = self.store(p)
                elif step == 'func':
                    p = self.through_func(p)
                else:
                    p = self.through_void(p)
            except Skip:
                pass
        return p

    def member_ptr(self, p, m, j=None):
        """&p->m (shared [] M *) or, for the array member, &p->arr[j] / p->arr."""
        elem, n = MEMBERS[m]
        pt = PType(elem, 0, p.pt.cons)   # a member of a strict struct is strict
        rng = self.rng
        if n is None:
            if rng.random() < 0.5:
                u, c = f'&({p.upc})->{m}', f'({p.cxx}).field(&rec::{m})'
            else:
                u, c = f'&(*({p.upc})).{m}', f'&(*({p.cxx})).field(&rec::{m})'
            return Ptr(pt, p.obj, 'mem', pos=Form(0), lo=0, hi=0, upc=u, cxx=c)
        j = rng.randrange(n) if j is None else j
        r = rng.randrange(3)
        if r == 0:
            u, c = f'&({p.upc})->arr[{j}]', f'&(({p.cxx})->*&rec::arr)[{j}]'
        elif r == 1 and j == 0:
            u, c = f'({p.upc})->arr', f'(({p.cxx})->*&rec::arr).data()'
        else:
            u, c = f'(*({p.upc})).arr + {j}', f'(*({p.cxx})).field(&rec::arr).data() + {j}'
        return Ptr(pt, p.obj, 'mem', pos=Form(j), lo=0, hi=n - 1, upc=u, cxx=c)

    def read_at(self, p, new=None, delta=None):
        """Prints the element at p (or at p + delta, by indexing)."""
        elem = p.pt.elem
        if delta is None:
            self.print_value(elem, f'*({p.upc})', f'*({p.cxx})')
            return
        d = delta.render()
        r = self.rng.randrange(4)
        if r == 0:
            self.print_value(elem, f'{d}[{p.upc}]', f'({p.cxx})[{d}]')
        elif r == 1:
            self.print_value(elem, f'*(({p.upc}) + {d})', f'*(({p.cxx}) + {d})')
        else:
            self.print_value(elem, f'({p.upc})[{d}]', f'({p.cxx})[{d}]')


class Generator:
    def __init__(self, seed, objects):
        self.seed = seed
        self.objects = objects
        self.ptypes = {}

    def make_case(self, cid, family=None):
        rng = random.Random(f'{self.seed}:{cid}')
        family = family or rng.choice(sorted(FAMILIES))
        fam = FAMILY_FUNCS[family]
        mode = fam.mode(rng)
        case = Case(cid, family, mode, rng.randrange(4), [])
        natoms = rng.randint(1, 4)
        tries = 0
        while len(case.atoms) < natoms and tries < 20:
            tries += 1
            ab = AtomBuilder(self, case, len(case.atoms), rng, mode)
            try:
                fam(ab)
            except Skip:
                continue
            for u, c in ab.at_end:
                ab.emit(u, c)
            if mode == 'publish' and len(ab.steps) == 1:
                ab.next_step()
            case.atoms.append(Atom([(list(u), list(c)) for u, c in ab.steps], ab.uses))
        return case


def family(mode_weights):
    """Registers a family function with its modes (all | actor | publish: weights)."""
    def wrap(fn):
        def mode(rng):
            modes, weights = zip(*mode_weights.items())
            return rng.choices(modes, weights)[0]
        fn.mode = mode
        return fn
    return wrap


# ---- the families ---------------------------------------------------------

@family({'all': 3, 'actor': 1})
def fam_index(ab):
    p = ab.pointer()
    if not p.movable():
        raise Skip()
    ab.comment(f'index: {p.obj.kind} {p.obj.name} through {p.frame}')
    for _ in range(ab.rng.randint(1, 3)):
        new, delta = ab.retarget(p)
        ab.read_at(p, new, delta)


@family({'all': 3, 'actor': 1})
def fam_deref(ab):
    p = ab.pointer()
    ab.comment(f'deref: {p.obj.name}')
    ab.read_at(p)
    if p.movable():
        new, delta = ab.retarget(p)
        q = ab.plus(p, new, delta)
        ab.read_at(q)


def walk(ab, p):
    """for (k = 0; k < n; k++, w++) sum += *w: a loop stepping a pointer over n elements."""
    n = ab.rng.randint(1, 4)
    while n and not ab.valid(p, p.pos + Form(n)):
        n -= 1
    if not n or not p.pt.spellable():
        raise Skip()
    e = p.pt.elem
    get = {'int': '(long)*w', 'float': '(long)(*w * 8)', 'struct': '(long)(*w).a'}[e.kind]
    getc = {'int': '(long)upcd_v(*w)', 'float': '(long)(upcd_v(*w) * 8)', 'struct': '(long)upcd_v((*w).field(&rec::a))'}[e.kind]
    ab.nvar += 1
    w, acc = f'w{ab.nvar}', f'acc{ab.nvar}'
    get, getc = get.replace('w', w), getc.replace('*w', f'*{w}')
    ab.emit(f'{ab.spell(p.pt)}{w} = {p.upc};', f'{p.pt.cxx()} {w} = {p.cxx};')
    ab.emit(f'long {acc} = 0;')
    ab.emit(f'for (int k = 0; k < {n}; k++, {w}++) {acc} += {get};', f'for (int k = 0; k < {n}; k++, {w}++) {acc} += {getc};')
    ab.print_long(acc)
    ab.print_ptr(ab.moved(p, p.pos + Form(n), w, w))


@family({'all': 3, 'actor': 1})
def fam_arith(ab):
    p = ab.pointer()
    if not p.movable():
        raise Skip()
    if ab.rng.random() < 0.25:
        ab.comment(f'arith: walk over {p.obj.name} {p.frame}')
        return walk(ab, p)
    ab.comment(f'arith: {p.obj.name} {p.frame}')
    ab.print_ptr(p)
    new, delta = ab.retarget(p)
    q = ab.plus(p, new, delta)
    ab.print_ptr(q)
    ab.read_at(q)
    ab.print_long(f'({q.upc}) - ({p.upc})', f'({q.cxx}) - ({p.cxx})')
    ab.print_long(f'({p.upc}) - ({q.upc})', f'({p.cxx}) - ({q.cxx})')


@family({'all': 2, 'actor': 2})
def fam_incdec(ab):
    p = ab.pointer()
    if not p.movable() or not p.pt.spellable():
        raise Skip()
    kinds = ab.slot_kinds(p.pt)
    kind = ab.rng.choice(kinds)
    ab.comment(f'incdec: {p.obj.name} in {kind}')
    s = ab.store(p, kind)
    cur = s
    for _ in range(ab.rng.randint(1, 4)):
        new, delta = ab.retarget(cur)
        step = cur.pos + Form(ab.rng.choice([1, -1]))
        if ab.rng.random() < 0.6 and ab.valid(cur, step):
            new, delta = step, step - cur.pos
        d = delta.render()
        # ++/-- when the step is one element, else += / -=
        if delta == Form(1):
            op = ab.rng.choice(['pre++', 'post++', 'add', '*post++', '*pre++'])
        elif delta == Form(-1):
            op = ab.rng.choice(['pre--', 'post--', 'sub', '*post--', '*pre--'])
        else:
            op = ab.rng.choice(['add', 'sub'])
        lu, lc = f'({s.upc})', f'({s.cxx})' if not s.cxx.startswith('upcd_v(') else f'({s.cxx[len("upcd_v("):-1]})'
        if op.startswith('*'):
            # *p++ and *++p: the element before or after the step
            o = op[-2:]
            eu, ec = (f'*{lu}{o}', f'*upcd_v({lc}{o})') if 'post' in op else (f'*{o}{lu}', f'*upcd_v({o}{lc})')
            ab.print_value(p.pt.elem, eu, ec)
            cur = ab.moved(cur, new, s.upc, s.cxx)
            ab.print_ptr(cur)
            continue
        expr = {'pre++': (f'++{lu}', f'++{lc}'), 'post++': (f'{lu}++', f'{lc}++'),
                'pre--': (f'--{lu}', f'--{lc}'), 'post--': (f'{lu}--', f'{lc}--'),
                'add': (f'{lu} += {d}', f'{lc} += {d}'), 'sub': (f'{lu} -= {(-delta).render()}', f'{lc} -= {(-delta).render()}')}[op]
        ab.nvar += 1
        tmp = f't{ab.nvar}'
        ab.emit(f'{ab.spell(p.pt)}{tmp} = {expr[0]};', f'{p.pt.cxx()} {tmp} = upcd_v({expr[1]});')
        before = cur
        cur = ab.moved(cur, new, s.upc, s.cxx)
        ab.print_ptr((before if op.startswith('post') else cur).expr(tmp, tmp))
        ab.print_ptr(cur)
        ab.read_at(cur)


@family({'all': 3, 'actor': 1})
def fam_compare(ab):
    p = ab.pointer()
    if not p.movable():
        raise Skip()
    ab.comment(f'compare: {p.obj.name} {p.frame}')
    new, delta = ab.retarget(p)
    q = ab.plus(p, new, delta)
    if ab.rng.random() < 0.5 and p.pt.spellable():
        q = ab.store(q)
    ops = ['==', '!=', '<', '>', '<=', '>=']
    for op in ab.rng.sample(ops, ab.rng.randint(2, 6)):
        a, b = (p, q) if ab.rng.random() < 0.5 else (q, p)
        ab.print_long(f'({a.upc}) {op} ({b.upc})', f'({a.cxx}) {op} ({b.cxx})')
    if ab.rng.random() < 0.3:
        ab.print_long(f'(shared void *)({p.upc}) == (shared void *)({q.upc})',
                      f'upc::sptr<void>({p.cxx}) == upc::sptr<void>({q.cxx})')
        ab.print_long(f'(shared void *)({p.upc}) != ({q.upc})', f'upc::sptr<void>({p.cxx}) != ({q.cxx})')
    same = ab.plus(q, p.pos, p.pos - q.pos)   # p again, by another route
    ab.print_long(f'({same.upc}) == ({p.upc})', f'({same.cxx}) == ({p.cxx})')
    ab.print_long(f'({same.upc}) != ({p.upc})', f'({same.cxx}) != ({p.cxx})')
    r = ab.rng.randrange(3)
    if r == 0:
        ab.print_long(f'({p.upc}) == NULL', f'({p.cxx}) == nullptr')
    elif r == 1:
        ab.print_long(f'NULL != ({p.upc})', f'nullptr != ({p.cxx})')
    else:
        ab.print_long(f'!({p.upc})', f'!({p.cxx})')


def cast_to(ab, p, pt):
    """(pt)p, and the C++ spelling of the same conversion."""
    u = f'({ab.spell(pt)})({p.upc})'
    if pt.block == 0:
        c = f'({p.cxx}).cast<{pt.elem.cx}, upc::indefinite>()'
    else:
        c = f'({p.cxx}).cast<{pt.elem.cx}, {pt.block}>()'
    return u, c


@family({'all': 3, 'actor': 1})
def fam_cast(ab):
    rng = ab.rng
    p = ab.pointer()
    if not p.derefable():
        raise Skip()
    ab.comment(f'cast: {p.obj.name} {p.pt.key} {p.frame}')
    T, B = p.pt.elem, p.pt.block
    r = rng.randrange(8)
    if r == 7 and p.frame == 'obj' and p.pos.is_const() and B != 0:
        # to a private pointer, on the thread with affinity (UPC 1.3 6.4.3p4): it walks the
        # rest of the element's block
        blk = p.obj.layout_block() if B == 'dyn' else B
        last = min(p.pos.a - p.pos.a % blk + blk - 1, p.obj.size.min() - 1)
        k = rng.randint(0, last - p.pos.a)
        t = ab.tag()
        ab.emit(f'if (upc_threadof({p.upc}) == (size_t)MYTHREAD) ' +
                value_print(T, t, f'(({T.c} *)({p.upc}))[{k}]', '')[0],
                f'if (upc_threadof({p.cxx}) == (size_t)MYTHREAD) ' +
                value_print(T, t, '', f'({p.cxx}).local()[{k}]')[1])
        return
    if r == 7:
        r = 6
    if r == 0 and p.pt.spellable():
        # through shared void * and back: the phase is kept
        q = ab.through_void(p)
        ab.print_ptr(q)
        ab.read_at(q)
    elif r == 1 and p.pt.spellable():
        # implicit conversions through a shared void * variable
        ab.nvar += 1
        v = f'g{ab.nvar}'
        ab.emit(f'shared void *{v} = {p.upc};', f'upc::sptr<void> {v} = {p.cxx};')
        name = ab.var(p.pt, init=p.expr(v, v))
        q = p.expr(name, name)
        ab.print_ptr(q)
        ab.read_at(q)
    elif r == 2 and p.frame == 'obj' and p.pos.is_const() and B != 0:
        # to shared [] T *: the elements after it in its block are on the same thread
        blk = p.obj.layout_block() if B == 'dyn' else B
        phase = p.pos.a % blk
        last = min(p.pos.a - phase + blk - 1, p.obj.size.min() - 1)
        first = p.pos.a - phase
        u, c = cast_to(ab, p, PType(T, 0))
        q = Ptr(PType(T, 0), p.obj, 'run', pos=p.pos, lo=first, hi=last, upc=u, cxx=c)
        ab.print_ptr(q)
        new, delta = ab.retarget(q)
        ab.read_at(q, new, delta)
        ab.print_ptr(ab.plus(q, new, delta))
    elif r == 3:
        # to another block size, same element type: phase 0 (UPC 1.3 6.4.3p2)
        b2 = rng.choice([x for x in [0, 1, 2, 3, 4, 7] if x != B])
        u, c = cast_to(ab, p, PType(T, b2))
        q = Ptr(PType(T, b2), p.obj, 'opaque', at_elem=True, upc=u, cxx=c)
        ab.print_ptr(q)
        ab.read_at(q)
        q2 = Ptr(q.pt, q.obj, 'opaque', upc=f'({u}) + 1', cxx=f'({c}) + 1')
        ab.print_ptr(q2)
    elif r == 4:
        # to another element type: char (read in place), or one of the same size
        same_size = [e for e in ELEMS if e.size == T.size and e != T]
        U = rng.choice(same_size + [CHAR]) if same_size else CHAR
        b2 = rng.choice([B if B != 'dyn' else 1, 0, 1, 2])
        u, c = cast_to(ab, p, PType(U, b2))
        q = Ptr(PType(U, b2), p.obj, 'opaque', at_elem=(U == CHAR), upc=u, cxx=c)
        ab.print_ptr(q)
        if U == CHAR:
            ab.read_at(q)
    elif r == 5 and p.pt.spellable():
        # shared void * to a larger block (the phase fits: kept) or to [] / [1] (phase 0)
        b2 = rng.choice([0, 1] + ([B + 1, 2 * B] if B not in (0, 'dyn') else []))
        pt2 = PType(T, b2)
        u = f'({ab.spell(pt2)})(shared void *)({p.upc})'
        c = f'static_cast<{pt2.cxx()}>(static_cast<upc::sptr<void>>({p.cxx}))'
        q = Ptr(pt2, p.obj, 'opaque', at_elem=True, upc=u, cxx=c)
        ab.print_ptr(q)
        ab.read_at(q)
    else:
        # upc_resetphase
        u, c = f'upc_resetphase({p.upc})', f'upc_resetphase(upcd_v({p.cxx}))'
        q = Ptr(p.pt, p.obj, 'opaque', at_elem=True, upc=u, cxx=c)
        ab.print_ptr(q)
        ab.print_long(f'upc_resetphase({p.upc}) == (shared void *)({p.upc})',
                      f'upc::sptr<void>(upc_resetphase(upcd_v({p.cxx}))) == upc::sptr<void>({p.cxx})')


@family({'all': 3, 'actor': 1})
def fam_member(ab):
    rng = ab.rng
    p = ab.pointer(want=lambda o: o.elem == REC)
    if not p.derefable():
        raise Skip()
    ab.comment(f'member: {p.obj.name} {p.frame}')
    m = rng.choice(sorted(MEMBERS))
    elem, n = MEMBERS[m]
    if p.movable() and rng.random() < 0.4:
        new, delta = ab.retarget(p)
        base_u, base_c = f'({p.upc})[{delta.render()}]', f'({p.cxx})[{delta.render()}]'
        p = ab.moved(p, new, f'&{base_u}', f'&{base_c}')
    r = rng.randrange(3)
    sub_u = sub_c = ''
    if n is not None:
        j = rng.randrange(n)
        sub_u = sub_c = f'[{j}]'
    if r == 0:
        ab.print_value(elem, f'({p.upc})->{m}{sub_u}', f'(({p.cxx})->*&rec::{m}){sub_c}')
    elif r == 1:
        ab.print_value(elem, f'(*({p.upc})).{m}{sub_u}', f'(*({p.cxx})).field(&rec::{m}){sub_c}')
    else:
        ab.print_value(elem, f'({p.upc})[0].{m}{sub_u}', f'({p.cxx})[0].field(&rec::{m}){sub_c}')
    q = ab.member_ptr(p, m)
    ab.print_ptr(q)
    ab.read_at(q)
    if n is not None:
        new, delta = ab.retarget(q)
        ab.read_at(q, new, delta)
        ab.print_ptr(ab.plus(q, new, delta))
    if rng.random() < 0.3:
        ab.print_value(REC, f'*({p.upc})', f'*({p.cxx})')
    if rng.random() < 0.2:
        ab.print_long(f'sizeof(({p.upc})->arr) + 100 * sizeof(*({p.upc})) + 10000 * sizeof(({p.upc})->d)',
                      'sizeof(short[3]) + 100 * sizeof(rec) + 10000 * sizeof(double)')
    if rng.random() < 0.3 and q.pt.spellable():
        s = ab.store(q)
        ab.print_ptr(s)
        ab.read_at(s)


@family({'all': 2, 'actor': 2, 'publish': 2})
def fam_storage(ab):
    rng = ab.rng
    if ab.mode == 'publish':
        return publish(ab)
    p = ab.pointer(depth=rng.choice([0, 1]))
    if not p.pt.spellable():
        raise Skip()
    ab.comment(f'storage: {p.obj.name}')
    s = ab.store(p)
    for _ in range(rng.randint(0, 2)):
        s = ab.store(s)
    if rng.random() < 0.3:
        s = ab.store_whole(s, 'const')   # read only from here on
    ab.print_ptr(s)
    if s.derefable():
        ab.read_at(s)
    if s.movable():
        new, delta = ab.retarget(s)
        ab.read_at(s, new, delta)


def publish(ab, obj=None):
    """Every thread stores a pointer that depends on MYTHREAD in its own entry of a
    shared array (or shared struct array); after a barrier every thread reads
    another thread's entry and uses it."""
    rng = ab.rng
    p = ab.pointer(obj=obj, depth=rng.choice([0, 1]))
    if not p.pt.spellable():
        raise Skip()
    # every atom of the case publishes through its own slot: they are all written before any is read
    free = [k for k in ('spa', 'hs') if (k, p.pt.key) not in ab.case.published]
    if not free:
        raise Skip()
    kind = rng.choice(free)
    ab.case.published.add((kind, p.pt.key))
    ab.comment(f'publish: {p.obj.name} in {kind}')
    ab.store(p, kind, thread='MYTHREAD')
    ab.next_step()
    w = rng.choice(THREAD_EXPRS[1:])
    ul, cl, cr = ab.slot(kind, p.pt, thread=w)
    pos = p.pos.subst('MYTHREAD', w) if p.pos is not None else None
    t = p.t.subst('MYTHREAD', w) if p.t is not None else None
    q = replace(p, pos=pos, t=t, upc=ul, cxx=cr)
    ab.print_ptr(q)
    if q.derefable():
        ab.read_at(q)
    if q.movable():
        new, delta = ab.retarget(q)
        ab.read_at(q, new, delta)


@family({'all': 3, 'actor': 2, 'publish': 2})
def fam_dir(ab):
    rng = ab.rng
    dirs = [o for o in ab.gen.objects if isinstance(o, Dir)]
    if ab.mode == 'publish':
        return publish(ab, obj=rng.choice(ab.gen.objects))
    d = rng.choice(dirs)
    ab.use_obj(d)
    t = rand_form(rng, Size(0, 1), ab.wexprs)
    j = Form(rng.randrange(d.length))
    ab.comment(f'dir: {d.name}')
    r = rng.randrange(5)
    lu, lc = d.lvalue_tj(t, j)
    if r == 0:
        ab.print_value(d.elem, lu, lc)
    elif r == 1:
        ab.print_value(d.elem, f'*{d.name}[{t.render()}]', f'*upcd_v({d.name}[{t.render()}])')
    elif r == 2 and ab.mode == 'actor':
        v = small_value(d.elem, rng)
        op = rng.choice(['=', '+=', '-='])
        if d.elem == REC:
            ab.emit(f'{lu}.a {op} {v};', f'{lc}.field(&rec::a) {op} {v};')
        else:
            ab.emit(f'{lu} {op} {v};', f'{lc} {op} {v};')
        ab.print_value(d.elem, lu, lc)
    else:
        p = Ptr(d.ptype(), d, 'buf', pos=j, t=t)
        u, c = rng.choice(d.sources_tj(t, j))
        p = p.expr(u, c)
        ab.print_ptr(p)
        ab.read_at(p)
        new, delta = ab.retarget(p)
        ab.read_at(p, new, delta)
    if d.elem == REC and rng.random() < 0.5:
        m = rng.choice(['a', 'd', 'l'])
        ab.print_value(MEMBERS[m][0], f'{lu}.{m}', f'{lc}.field(&rec::{m})')


@family({'all': 3, 'actor': 1})
def fam_func(ab):
    rng = ab.rng
    p = ab.pointer(depth=rng.choice([0, 1]))
    if not p.pt.spellable():
        raise Skip()
    k = p.pt.key
    ab.comment(f'func: {p.obj.name}')
    q = ab.through_func(p)
    ab.print_ptr(q)
    if q.derefable():
        ab.read_at(q)
    if q.movable() and rng.random() < 0.6:
        ab.use('fget', p.pt)
        new, delta = ab.retarget(q)
        t = ab.tag()
        ab.emit(*value_print(q.pt.elem, t, f'fget_{k}({q.upc}, {delta.render()})',
                             f'fget_{k}({q.cxx}, {delta.render()})'))
    if rng.random() < 0.4:
        s = ab.store(q, 'local')
        ab.print_ptr(s)


@family({'all': 1})
def fam_sizeof(ab):
    rng = ab.rng
    obj = ab.pick_obj()
    ab.use_obj(obj)
    n = obj.name
    ab.comment(f'sizeof: {n}')
    e = obj.elem
    pt = obj.ptype()
    if pt.spellable():
        ab.print_long(f'sizeof({ab.spell(pt)})', f'sizeof({pt.cxx()})')
    ab.print_long('sizeof(shared void *)', 'sizeof(upc::sptr<void>)')
    if isinstance(obj, Dir):
        ab.print_long(f'sizeof({n})', f'{n}.size_bytes()')
        ab.print_long(f'sizeof({n}[0])', f'sizeof(upcd_v({n}[0]))')
        ab.print_long(f'sizeof(*{n}[0])', f'sizeof(upcd_v(*upcd_v({n}[0])))')
        ab.print_long(f'upc_blocksizeof({n})', f'upc_blocksizeof({n})')
        ab.print_long(f'upc_localsizeof({n})', f'upc_localsizeof({n})')
        ab.print_long(f'upc_blocksizeof(*{n}[MYTHREAD])', f'upc_blocksizeof(*upcd_v({n}[MYTHREAD]))')
        ab.print_long(f'upc_elemsizeof(*{n}[0])', f'upc_elemsizeof(*upcd_v({n}[0]))')
        return
    if obj.kind == 'allalloc':
        ab.print_long(f'sizeof({n})', f'sizeof({n})')
        ab.print_long(f'sizeof(*{n})', f'sizeof(upcd_v(*{n}))')
        ab.print_long(f'upc_blocksizeof(*{n})', f'upc_blocksizeof(*{n})')
        ab.print_long(f'upc_elemsizeof({n}[0])', f'upc_elemsizeof({n}[0])')
        return
    if obj.kind == 'scalar':
        ab.print_long(f'sizeof({n})', f'sizeof({e.cx})')
        ab.print_long(f'upc_blocksizeof({n})', f'upc_blocksizeof({n})')
        ab.print_long(f'upc_elemsizeof({n})', f'upc_elemsizeof({n})')
        ab.print_long(f'upc_localsizeof({n})', f'upc_localsizeof({n})')
        return
    ab.print_long(f'sizeof({n})', f'{n}.size_bytes()')
    ab.print_long(f'upc_blocksizeof({n})', f'upc_blocksizeof({n})')
    ab.print_long(f'upc_elemsizeof({n})', f'upc_elemsizeof({n})')
    ab.print_long(f'upc_localsizeof({n})', f'upc_localsizeof({n})')
    if isinstance(obj, Arr2):
        ab.print_long(f'sizeof({n}[0])', f'{n}.extent(1) * sizeof({e.cx})')
        ab.print_long(f'sizeof({n}[0][0])', f'sizeof({e.cx})')
        ab.print_long(f'upc_blocksizeof({n}[0][0])', f'upc_blocksizeof({n}[0][0])')
    else:
        ab.print_long(f'sizeof({n}[0])', f'sizeof({e.cx})')
        ab.print_long(f'upc_blocksizeof({n}[0])', f'upc_blocksizeof({n}[0])')
        ab.print_long(f'sizeof({n}) / sizeof({n}[0])', f'{n}.size()')
    if e == REC:
        ab.print_long(f'sizeof(&{n}{"[0]" * (2 if isinstance(obj, Arr2) else 1)}.d)', 'sizeof(upc::sptr<double, upc::indefinite>)')


@family({'all': 3, 'actor': 1})
def fam_query(ab):
    rng = ab.rng
    p = ab.pointer()
    ab.comment(f'query: {p.obj.name} {p.frame}')
    ab.print_ptr(p, inline=True)
    if p.obj.elem == REC and p.derefable() and rng.random() < 0.5:
        ab.print_ptr(ab.member_ptr(p, rng.choice(sorted(MEMBERS))), inline=True)
    if p.movable():
        new, delta = ab.retarget(p)
        ab.print_ptr(ab.plus(p, new, delta), inline=True)


def small_value(elem, rng):
    if elem.kind == 'float':
        return rng.choice(['0.5', '1.25', '-2.0'])
    return str(rng.randint(1, 20))


@family({'actor': 1})
def fam_write(ab):
    rng = ab.rng
    p = ab.pointer()
    if not p.derefable():
        raise Skip()
    ab.comment(f'write: {p.obj.name} {p.frame}')
    if p.movable() and rng.random() < 0.6:
        new, delta = ab.retarget(p)
        lu, lc = f'({p.upc})[{delta.render()}]', f'({p.cxx})[{delta.render()}]'
        at = ab.moved(p, new, f'&{lu}', f'&{lc}')
    else:
        lu, lc = f'*({p.upc})', f'*({p.cxx})'
        at = p
    elem = p.pt.elem
    if elem == REC:
        m = rng.choice(['a', 'c', 'd', 'arr', 'l', None])
        if m is None:
            k = rng.randrange(50)
            ab.emit(f'{lu} = init_r(99, {k});', f'{lc} = init_r(99, {k});')
        else:
            melem, n = MEMBERS[m]
            sub = f'[{rng.randrange(n)}]' if n else ''
            mu, mc = f'({lu}).{m}{sub}', f'({lc}).field(&rec::{m}){sub}'
            op = rng.choice(['=', '+=', '-='])
            v = small_value(melem, rng)
            ab.emit(f'{mu} {op} {v};', f'{mc} {op} {v};')
            ab.print_value(melem, mu, mc)
    else:
        v = small_value(elem, rng)
        ops = ['=', '+=', '-=', 'pre++', 'post++', 'pre--', 'post--', '*=']
        ops += ['/=', '%=', '&=', '|=', '^=', '<<=', '>>='] if elem.kind == 'int' else ['/=']
        op = rng.choice(ops)
        if op in ('<<=', '>>='):
            v = str(rng.randint(1, 2))
        if op in ('/=', '%=') and elem.kind == 'float':
            v = '2.0'
        if '=' in op:
            expr_u, expr_c = f'{lu} {op} {v}', f'{lc} {op} {v}'
        elif op.startswith('pre'):
            expr_u, expr_c = f'{op[3:]}{lu}', f'{op[3:]}{lc}'
        else:
            expr_u, expr_c = f'({lu}){op[4:]}', f'({lc}){op[4:]}'
        if elem.kind == 'int':
            ab.print_long(expr_u, f'upcd_v({expr_c})')
        else:
            t = ab.tag()
            ab.emit(f'pr_d("{t}", {expr_u});', f'pr_d("{t}", upcd_v({expr_c}));')
    # read back through the pointer and, when the generator knows the element, by its name
    ab.read_at(at)
    if at.frame == 'obj' and hasattr(at.obj, 'lvalue'):
        cu, cc = at.obj.lvalue(at.pos)
        ab.print_value(elem, cu, cc)


@family({'all': 1})
def fam_forall(ab):
    """upc_forall with a pointer-to-shared affinity: each thread counts the iterations it runs."""
    p = ab.pointer()
    if not p.movable():
        raise Skip()
    n = ab.rng.randint(1, 8)
    while n and not ab.valid(p, p.pos + Form(n - 1)):
        n -= 1
    if not n:
        raise Skip()
    ab.comment(f'forall over {p.obj.name} {p.frame}')
    ab.use_obj(p.obj)
    ab.nvar += 1
    c = f'cnt{ab.nvar}'
    aff = ab.rng.choice([('({p}) + k', '({p}) + k'), ('&({p})[k]', '&({p})[k]'), ('k + ({p})', 'k + ({p})'),
                         ('upc_threadof(({p}) + k)', 'upc_threadof(({p}) + k)')])
    ab.emit(f'long {c} = 0;')
    ab.emit(f'upc_forall (int k = 0; k < {n}; k++; {aff[0].format(p=p.upc)}) {c} += 1 + 10 * k;',
            f'upc_forall (int k = 0; k < {n}; k++, {aff[1].format(p=p.cxx)}) {c} += 1 + 10 * k;')
    ab.print_long(c)


@family({'all': 3, 'actor': 1})
def fam_rows(ab):
    """Pointers to rows of a 2-D shared array, shared [B] T (*p)[C] (UPC 1.3 6.4.2: p + 1
    steps a row, C elements): p[i][j], *(p + i), p[i] + j, p - q, sizeof *p. The C++ twin
    keeps the row's first element as a flat pointer and steps by C."""
    rng = ab.rng
    objs = [o for o in ab.gen.objects if isinstance(o, Arr2) and o.cols.k1 == 0 and o.block != STAR]
    if not objs:
        raise Skip()
    m = rng.choice(objs)
    ab.use_obj(m)
    C = m.cols.k0
    rows = m.rows
    r0 = rand_form(rng, rows, ab.wexprs)
    ab.comment(f'rows of {m.name}[{rows.render()}][{C}]')
    ab.nvar += 1
    rp = f'rp{ab.nvar}'
    init = rng.choice([(f'{m.name}', f'{m.name}.data()', Form(0)),
                       (f'&{m.name}[{r0.render()}]', f'{m.name}[{r0.render()}].data()', r0),
                       (f'{m.name} + {r0.render()}', f'{m.name}.data() + {r0.scale(C).render()}', r0)])
    ab.emit(f'{m.ptype().qual(rng.randrange(2))} {m.elem.c} (*{rp})[{C}] = {init[0]};',
            f'{m.ptype().cxx()} {rp} = {init[1]};')
    r = init[2]
    for _ in range(rng.randint(1, 3)):
        t = rand_form(rng, rows, ab.wexprs)
        i = (t - r).render()
        j = rng.randrange(C)
        k = rng.randrange(4)
        flat = t.scale(C) + Form(j)
        if k == 0:
            ab.print_value(m.elem, f'{rp}[{i}][{j}]', f'({rp} + {(t - r).scale(C).render()})[{j}]')
        elif k == 1:
            ab.print_value(m.elem, f'(*({rp} + {i}))[{j}]', f'*({rp} + {(t - r).scale(C).render()} + {j})')
        elif k == 2:
            ab.print_ptr(Ptr(m.ptype(), m, 'obj', pos=flat, upc=f'{rp}[{i}] + {j}',
                             cxx=f'{rp} + {(t - r).scale(C).render()} + {j}'))
        else:
            ab.print_ptr(Ptr(m.ptype(), m, 'obj', pos=t.scale(C), upc=f'{rp} + {i}',
                             cxx=f'{rp} + {(t - r).scale(C).render()}'))
    if m.elem == REC:
        # a member of an element reached through the row pointer
        t = rand_form(rng, rows, ab.wexprs)
        j = rng.randrange(C)
        mem = rng.choice(['a', 'd', 'l'])
        i, ic = (t - r).render(), (t - r).scale(C).render()
        u, c = rng.choice([(f'{rp}[{i}][{j}].{mem}', f'({rp} + {ic})[{j}].field(&rec::{mem})'),
                           (f'(*({rp} + {i}))[{j}].{mem}', f'(*({rp} + {ic} + {j})).field(&rec::{mem})'),
                           (f'({rp}[{i}] + {j})->{mem}', f'(({rp} + {ic} + {j})->*&rec::{mem})')])
        ab.print_value(MEMBERS[mem][0], u, c)
    t = rand_form(rng, rows, ab.wexprs)
    ab.print_long(f'({rp} + {(t - r).render()}) - {rp}', f'(({rp} + {(t - r).scale(C).render()}) - {rp}) / {C}')
    ab.print_long(f'sizeof(*{rp}) + 1000 * sizeof({rp}[0][0])', f'{C} * sizeof({m.elem.cx}) + 1000 * sizeof({m.elem.cx})')


FAMILY_FUNCS = {'index': fam_index, 'deref': fam_deref, 'arith': fam_arith, 'incdec': fam_incdec,
                'compare': fam_compare, 'cast': fam_cast, 'member': fam_member, 'storage': fam_storage,
                'dir': fam_dir, 'func': fam_func, 'sizeof': fam_sizeof, 'query': fam_query, 'write': fam_write,
                'forall': fam_forall, 'rows': fam_rows}
assert set(FAMILY_FUNCS) == set(FAMILIES)
