#!/usr/bin/python3
"""upcc's prepass reads the preprocessed text as parallel lists of token texts
and kinds (tools/upcc/upcc_lib/prepass.py, Tokens): the kind of a token comes
from its first characters, whether it is in a system header from the line
markers, and its file and line are worked out only for an error message. Each
test here gives a text and the answer written by hand; the rewrite rules built
on the tokens are tested by test_translate.py."""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools", "upcc"))

from upcc_lib.errors import UpcError  # noqa: E402
from upcc_lib.prepass import prepass, tokenize  # noqa: E402


def significant(toks):
    return [(x, k) for x, k in zip(toks.texts, toks.kinds) if k not in ("ws", "nl")]


class Kinds(unittest.TestCase):
    def test_first_characters_decide(self):
        toks = tokenize("a L'x' L x .5 ... . \"s\" 'c' 1e+5 0x1fUL -> <<= é\n")
        self.assertEqual(significant(toks), [
            ("a", "id"), ("L'x'", "str"), ("L", "id"), ("x", "id"), (".5", "num"), ("...", "punct"),
            (".", "punct"), ('"s"', "str"), ("'c'", "str"), ("1e+5", "num"), ("0x1fUL", "num"), ("->", "punct"),
            ("<<=", "punct"), ("é", "punct")])

    def test_a_quote_that_closes_nowhere_is_a_punctuator(self):
        toks = tokenize("a \" b\n' c\n")
        self.assertEqual(significant(toks), [("a", "id"), ('"', "punct"), ("b", "id"), ("'", "punct"), ("c", "id")])

    def test_a_marker_starts_a_line(self):
        toks = tokenize("#pragma upc strict\nx # y ## z\n# 4 \"f.c\"\n")
        self.assertEqual(significant(toks), [
            ("#pragma upc strict", "marker"), ("x", "id"), ("#", "punct"), ("y", "id"), ("##", "punct"),
            ("z", "id"), ('# 4 "f.c"', "marker")])
        self.assertEqual(toks.markers, [0, toks.texts.index('# 4 "f.c"')])

    def test_the_texts_are_the_whole_text(self):
        text = "# 1 \"a.c\"\nint x = 'q' + \"s\\\"t\";\n\t \r\n"
        self.assertEqual("".join(tokenize(text).texts), text)


class Markers(unittest.TestCase):
    TEXT = ("int a;\n"                             # <input> line 1
            "# 1 \"/usr/include/stdio.h\" 1 3 4\n"
            "int shared;\n"                        # stdio.h line 1, system
            "# 7 \"p.upc\" 2\n"
            "int b;\n"                             # p.upc line 7
            "char *s = \"x\\\ny\"; int c;\n"      # p.upc line 8; the string goes on to line 9
            "int d;\n")                            # p.upc line 10

    def token(self, toks, text, nth=0):
        return [i for i, x in enumerate(toks.texts) if x == text][nth]

    def test_system_from_flag_3(self):
        toks = tokenize(self.TEXT)
        system = {x for x, s in zip(toks.texts, toks.system) if s and x.strip()}
        self.assertEqual(system, {"int", "shared", ";", '# 7 "p.upc" 2'})  # the marker closing it is still inside

    def test_where(self):
        toks = tokenize(self.TEXT)
        self.assertEqual(toks.where(self.token(toks, "a")), ("<input>", 1))
        self.assertEqual(toks.where(self.token(toks, "shared")), ("/usr/include/stdio.h", 1))
        self.assertEqual(toks.where(self.token(toks, "b")), ("p.upc", 7))
        self.assertEqual(toks.where(self.token(toks, "s")), ("p.upc", 8))
        self.assertEqual(toks.where(self.token(toks, "c")), ("p.upc", 9))
        self.assertEqual(toks.where(self.token(toks, "d")), ("p.upc", 10))

    def test_where_in_a_slice_is_the_whole_texts(self):
        toks = tokenize(self.TEXT)
        a = self.token(toks, "b")
        part = toks.slice(a, len(toks))
        self.assertEqual(part.where(part.texts.index("d")), ("p.upc", 10))


class ErrorLines(unittest.TestCase):
    """An error found after a pass changed token texts, or inside a rewritten
    fragment, names the line of its token."""

    def error(self, text):
        with self.assertRaises(UpcError) as e:
            prepass(text)
        return e.exception.file, e.exception.line, e.exception.message

    def test_after_an_array_parameter_was_rewritten(self):
        file, line, message = self.error('# 1 "p.upc"\nvoid f(shared int a[2],\n'
                                         '       shared int b[2][THREADS]);\n')
        self.assertEqual((file, line), ("p.upc", 2))
        self.assertIn("parameter 'b'", message)

    def test_inside_a_forall_clause(self):
        file, line, message = self.error('# 5 "p.upc"\nvoid f(void) { int i;\n  upc_forall (i = 0; i < 9;\n'
                                         '    i++; (shared [THREADS] int *)0) ; }\n')
        self.assertEqual((file, line), ("p.upc", 7))
        self.assertIn("block size 'THREADS' contains THREADS", message)


if __name__ == "__main__":
    unittest.main()
