"""Recursive-descent parser for card expressions (never ``eval``).

Grammar, loosest binding first::

    sum      = product (("+" | "-") product)*
    product  = unary (("*" | "/") unary | implicit)*      implicit: a name, function or "("
    unary    = ("-" | "+") unary | power                   so -X^2 = -(X^2)
    power    = postfix ("^" unary)?                        right-associative: 2^3^2 = 2^9
    postfix  = primary ("!" | superscript)*                X², 3!, X¹⁰
    primary  = number | variable | function "(" sum ")" | "(" sum ")"

Implicit multiplication binds exactly like ``*`` (left to right), so ``1/2X`` is
``(1/2)*X`` and ``X/2X`` is ``(X/2)*X``, as in Wolfram Alpha and Desmos. It applies
only before a variable, a function or a bracket: ``X2`` and ``2 3`` are errors.

>>> str(parse("2X+4")), str(parse("3N²")), str(parse("-X^2")), str(parse("1/2X"))
('2*X + 4', '3*N^2', '-X^2', '1/2*X')
"""

from __future__ import annotations

from companion.cardmath.expr.lexer import Token, tokenize
from companion.cardmath.expr.nodes import BinaryOp, Call, Expr, Factorial, Negate, Number, Variable
from companion.errors import ExpressionError

_CLOSING = {"(": ")", "[": "]"}


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = tokenize(text)
        self.index = 0
        self.depth = 0

    def peek(self) -> Token | None:
        return self.tokens[self.index] if self.index < len(self.tokens) else None

    def take(self) -> Token:
        token = self.tokens[self.index]
        self.index += 1
        return token

    def error(self, message: str, position: int) -> ExpressionError:
        return ExpressionError(message, text=self.text, position=position)

    def at_operator(self, *ops: str) -> bool:
        token = self.peek()
        return token is not None and token.kind == "operator" and token.text in ops

    def parse(self) -> Expr:
        if not self.tokens:
            raise self.error("empty expression", 0)
        tree = self.sum()
        token = self.peek()
        if token is not None:
            if token.kind == "close":
                raise self.error(f"unmatched {token.text!r}", token.position)
            raise self.error(f"missing operator before {token.text!r}", token.position)
        return tree

    def sum(self) -> Expr:
        tree = self.product()
        while self.at_operator("+", "-"):
            token = self.take()
            right = self.product()
            tree = BinaryOp(token.text, tree, right, source=self.text, position=token.position)
        return tree

    def product(self) -> Expr:
        tree = self.unary()
        while True:
            token = self.peek()
            if token is None:
                return tree
            if token.kind == "operator" and token.text in "*/":
                self.take()
            elif token.kind not in ("name", "function", "open"):
                return tree
            right = self.unary()
            op = token.text if token.kind == "operator" else "*"
            tree = BinaryOp(op, tree, right, source=self.text, position=token.position)

    def unary(self) -> Expr:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            token = self.peek()
            raise self.error("expression nested too deeply",
                             token.position if token else len(self.text))
        try:
            return self.signed()
        finally:
            self.depth -= 1

    def signed(self) -> Expr:
        if self.at_operator("-", "+"):
            token = self.take()
            operand = self.unary()
            if token.text == "+":
                return operand
            return Negate(operand, source=self.text, position=token.position)
        return self.power()

    def power(self) -> Expr:
        base = self.postfix()
        if self.at_operator("^"):
            token = self.take()
            exponent = self.unary()
            return BinaryOp("^", base, exponent, source=self.text, position=token.position)
        return base

    def postfix(self) -> Expr:
        tree = self.primary()
        while (token := self.peek()) is not None and token.kind in ("bang", "power"):
            self.take()
            if token.kind == "bang":
                tree = Factorial(tree, source=self.text, position=token.position)
            else:
                exponent: Expr = Number(abs(token.value), source=self.text, position=token.position)
                if token.value < 0:
                    exponent = Negate(exponent, source=self.text, position=token.position)
                tree = BinaryOp("^", tree, exponent, source=self.text, position=token.position)
        return tree

    def primary(self) -> Expr:
        token = self.peek()
        if token is None:
            last = self.tokens[-1]
            if last.kind == "operator":
                raise self.error(f"trailing operator {last.text!r}", last.position)
            raise self.error("expression ends too early", len(self.text))
        self.take()
        if token.kind == "number":
            return Number(token.value, source=self.text, position=token.position)
        if token.kind == "name":
            return Variable(token.text, source=self.text, position=token.position)
        if token.kind == "function":
            opening = self.peek()
            if opening is None or opening.kind != "open":
                raise self.error(f"{token.text} needs brackets, e.g. {token.text}(X)",
                                 token.position)
            argument = self.bracketed(self.take())
            return Call(token.text, argument, source=self.text, position=token.position)
        if token.kind == "open":
            return self.bracketed(token)
        if token.kind == "close":
            raise self.error(f"unmatched {token.text!r}", token.position)
        raise self.error(f"missing number before {token.text!r}", token.position)

    def bracketed(self, opening: Token) -> Expr:
        if (token := self.peek()) is not None and token.kind == "close":
            raise self.error("empty brackets", token.position)
        inner = self.sum()
        closing = self.peek()
        if closing is None or closing.kind != "close":
            raise self.error(f"unclosed bracket {opening.text!r}", opening.position)
        if closing.text != _CLOSING[opening.text]:
            raise self.error(
                f"bracket {opening.text!r} closed by {closing.text!r}", closing.position
            )
        self.take()
        return inner


MAX_LENGTH = 500
"""Longest card text accepted (no real card comes close)."""
MAX_DEPTH = 100
"""Deepest nesting of brackets, powers and signs accepted."""


def parse(text: str) -> Expr:
    """Parse the text printed on a card; raises :class:`ExpressionError` with the position."""
    if len(text) > MAX_LENGTH:
        raise ExpressionError(f"expression too long ({len(text)} characters, limit {MAX_LENGTH})",
                              text=text[:40] + "...", position=MAX_LENGTH)
    return _Parser(text).parse()
