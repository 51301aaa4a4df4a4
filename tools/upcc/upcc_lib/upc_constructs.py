"""UPC's statements and operators beyond expressions on shared data:
upc_forall, upc_barrier/notify/wait/fence, upc_blocksizeof/elemsizeof/localsizeof
and sizeof of shared types (docs/upcc.md). The prepass has turned each into a
call of a marker (`__upcc_barrier(e)`, `__upcc_forall_aff(d)`, ...) that clang
parses and types; here the markers become calls of the runtime.
"""
import re

import clang.cindex as ci

from .clang_util import begin_of, children, end_of, expression_children, strip
from .type_algebra import AS_RE

K = ci.CursorKind
TK = ci.TypeKind


class UpcConstructs:
    # ---- upc_forall ----
    def forall_affinity(self, c):
        """The __upcc_forall_aff call of a translated upc_forall (a for whose body is
        `if (__upcc_forall_aff(d)) S`), or None."""
        kids = children(c)
        if not kids or kids[-1].kind != K.IF_STMT:
            return None
        cond = strip(next(kids[-1].get_children()))
        if cond.kind == K.CALL_EXPR and cond.spelling == "__upcc_forall_aff":
            src = self.src(begin_of(c), begin_of(kids[-1]))
            if "__upcc_forall_aff" not in src:
                return cond
        return None

    def rw_for(self, c):
        aff = self.forall_affinity(c)
        if aff is None:
            return self.generic(c)
        body = self.generic(c)
        # An empty affinity gives every iteration to every thread: the runtime
        # notes where (upcrun --report=locality).
        enter = ("upcemu_forall_enter(1)" if list(aff.get_arguments())
                 else "upcemu_forall_enter_every_thread(__FILE__, __LINE__)")
        # a once-loop around the for: no brace to close after the body
        return ("for (int __upcc_fl __attribute__((cleanup(upcemu_forall_leave))) = "
                f"{enter}, __upcc_once = 1; __upcc_once; __upcc_once = 0) " + body)

    def forall_affinity_test(self, c, args):
        if not args:
            return "1"
        a = args[0]
        if self.is_sptr(a.type):
            return f"(__upcc_fl || ({self.rw(a)}).thread == (uint32_t)upcemu_mythread())"
        if self.is_integer(a.type):
            return f"(__upcc_fl || upcemu_forall_int({self.rw(a)}))"
        self.error(c, f"upc_forall affinity must be an integer or a pointer-to-shared, "
                      f"not '{self.c_type(a.type)}'")

    # ---- the markers ----
    def rw_call(self, c):
        if not c.spelling.startswith("__upcc_"):
            return self.generic(c)
        name = c.spelling
        args = list(c.get_arguments())
        if name in ("__upcc_barrier", "__upcc_notify", "__upcc_wait"):
            fn = "upcemu_" + name[7:]
            if not args:
                return f"{fn}(0, 0, __FILE__, __LINE__)"
            if not self.is_integer(args[0].type):
                self.error(c, f"the expression of upc_{name[7:]} must have integer type, not "
                              f"'{self.c_type(args[0].type)}' (UPC 1.3 6.6.1)")
            return f"{fn}(1, (int)({self.rw(args[0])}), __FILE__, __LINE__)"
        if name in ("__upcc_blocksizeof", "__upcc_elemsizeof", "__upcc_localsizeof"):
            return self.rw_sizeof_op(c, name[7:], args[0])
        if name == "__upcc_fence":
            return "upcemu_fence()"
        if name == "__upcc_forall_aff":
            return self.forall_affinity_test(c, args)
        self.error(c, f"{name[7:]} is not supported by upcc yet")

    # ---- upc_blocksizeof, upc_elemsizeof, upc_localsizeof ----
    def object_in(self, c):
        """The shared object a (typeof) operand names, with the type at that
        reference: a[i] of a multi-dimensional object is a row of it."""
        for d in c.walk_preorder():
            if d.kind == K.DECL_REF_EXPR and d.referenced is not None and d.referenced.get_usr() in self.objects:
                return self.objects[d.referenced.get_usr()]
        return None

    def operand_type(self, arg):
        t = arg.type.get_canonical()
        return t.get_pointee() if t.kind == TK.POINTER else t

    def array_rank(self, t):
        n = 0
        while self.is_array(t):
            n += 1
            t = t.get_canonical().element_type
        return n

    def member_operand(self, arg):
        """Whether the operand (`(__typeof__(X) *)0`) names a member of a shared
        struct: its type is `shared [] T` (UPC 1.3 6.4.4)."""
        for d in arg.walk_preorder():
            if d.kind == K.MEMBER_REF_EXPR and self.top_as(d.type) > 0:
                return True
        return False

    def rw_sizeof_op(self, c, op, arg):
        """upc_blocksizeof / upc_elemsizeof / upc_localsizeof (UPC 1.3 6.5.1.1)."""
        t = self.operand_type(arg)
        k = self.top_as(t)
        if k == 0:
            self.error(c, f"upc_{op} needs a shared type or an expression of shared type, not "
                          f"'{self.c_type(t)}'")
        elem = self.c_type(self.ultimate(t), drop_quals=True)
        if op == "elemsizeof":
            return f"((size_t)sizeof({elem}))"
        whole = self.is_array(t)
        member = self.member_operand(arg)
        obj = self.object_in(arg) if whole and not member else None
        if obj is not None and self.array_rank(t) != len(obj.dims):
            obj = None  # a row of the object: a type-level answer
        block = "0" if member else self.layout(k)[0]
        if op == "blocksizeof":
            if obj is not None:
                return f"((size_t){obj.cname}.block)"
            if block == "*":
                star = self.object_in(arg)  # an element or a row of a [*] object: its block
                if star is not None and star.block == "*":
                    return f"((size_t){star.cname}.block)"
                if not whole:
                    return "((size_t)1)"
                return f"((size_t){self.star_block_of_type(c, arg, t)})"
            return f"((size_t){self.block_expr(block)})"
        # localsizeof
        if obj is not None:
            return f"upcemu_localsizeof({obj.cname}.count, {obj.cname}.block, sizeof({elem}))"
        if not whole:
            return f"((size_t)sizeof({elem}))"
        if block == "*":
            b = self.star_block_of_type(c, arg, t)
            return (f"upcemu_localsizeof(sizeof({self.c_type(t)}) / sizeof({elem}), {b}, "
                    f"sizeof({elem}))")
        return (f"upcemu_localsizeof(sizeof({self.c_type(t)}) / sizeof({elem}), {self.block_expr(block)}, "
                f"sizeof({elem}))")

    def star_block_of_type(self, c, arg, t):
        """The block of a `shared [*]` array *type* (UPC 1.3 6.5.1.1: evaluated where
        the type is used, as if distributed over THREADS: ceil(elements / THREADS)).
        The elements come from the type, which the parse computes with THREADS as 1:
        a dimension with THREADS needs -T."""
        if not self.static_threads and "__upcc_THREADS" in self.text_of(arg):
            self.error(c, "the block size of a shared [*] array type with THREADS in a dimension needs a static "
                          "THREADS (upcc -T N)")
        # [*] binds where it is written: an array of a [*] typedef (`typedef K L[10]`)
        # keeps K's block, so the elements counted are those of the innermost
        # typedef that says [*] (the specification's consensus reading, issue 2 of
        # the UPC specification's tracker)
        # (the operand arrives as typeof(L): its typedef is the type reference inside)
        refs = [k.referenced for k in arg.walk_preorder() if k.kind == K.TYPE_REF and k.referenced is not None
                and k.referenced.kind == K.TYPEDEF_DECL]
        start = refs[0].type if refs else t
        where, todo = t, [start]
        while todo:
            x = todo.pop()
            if x.kind == TK.TYPEDEF:
                u = x.get_declaration().underlying_typedef_type
                if self.is_array(u) and self.top_as(u) > 0 and self.layout(self.top_as(u))[0] == "*":
                    where = u
                todo.append(u)
            elif x.kind == TK.ELABORATED:
                todo.append(x.get_named_type())
            elif x.kind == TK.CONSTANTARRAY:
                todo.append(x.element_type)
        n, u = 1, self.canonical(where)
        while u.kind == TK.CONSTANTARRAY:
            n *= u.element_count
            u = u.element_type
        return f"(({n} + (size_t)upcemu_threads() - 1) / (size_t)upcemu_threads())"

    # ---- sizeof ----
    def rw_sizeof(self, c):
        """sizeof (and _Alignof) of shared objects and types: a shared array's
        size counts its THREADS dimensions; a pointer-to-shared is an upcemu_sptr."""
        text = self.text_of(c)
        if not text.lstrip().startswith(("sizeof", "_Alignof", "__alignof")):
            return self.generic(c)
        kids = expression_children(c)
        e = strip(kids[0]) if kids else None
        if e is not None:
            if self.top_as(e.type) > 0 and self.is_array(e.type) and self.is_shared_lvalue(e):
                # an object or a row of one: its dimensions' own texts (THREADS counts)
                p = self.place(e)
                if p.dims:
                    n = " * ".join(f"(size_t)({d})" for d in p.dims)
                    return f"((size_t)({n}) * sizeof({p.elem}))"
            if self.mentions_shared(e.type):
                return f"{text.lstrip().split('(')[0].split()[0]}({self.c_type(e.type)})"
            return self.generic(c)
        return self.generic(c)
