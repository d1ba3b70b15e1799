"""Every comparison the checker makes is decided by an IBM sentence (DEVELOPERS.md, principle 1).

The checker finds divergences only through ``cfconform.judge.compare.diff(comparison, ...)``, and each
comparison names the rules whose quoted sentences decide the value compared.  These tests read the
checker's source, so a new comparison that names no rule, or a rule with no quote, fails here.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from cfconform.judge.compare import _SECTIONS, COMPARISONS
from cfconform.reference_model.rules import RULE_BY_ID

JUDGE = Path(__file__).resolve().parents[2] / "judge"
#: The modules that judge (the checker and what it calls); shrinking only replays them.
JUDGING = ("checker.py", "seen.py", "refusals.py", "compare.py", "relations.py", "runner.py", "blame.py")


def _calls(name: str) -> list[tuple[str, ast.Call]]:
    found = []
    for module in JUDGING:
        tree = ast.parse((JUDGE / module).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name:
                found.append((module, node))
    return found


def test_divergences_are_made_only_through_diff():
    """``FieldDiff(...)`` is built in one place, ``diff``, which looks its comparison up."""
    direct = [(m, n.lineno) for m, n in _calls("FieldDiff")]
    assert [("compare.py", _diff_line())] == direct


def _diff_line() -> int:
    tree = ast.parse((JUDGE / "compare.py").read_text(encoding="utf-8"))
    fn = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "diff")
    return next(n.lineno for n in ast.walk(fn) if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "FieldDiff")


def _named() -> list[tuple[str, int, str | None]]:
    """(module, line, comparison) of every ``diff`` call; a comparison passed on in a variable is one
    of ``compare._SECTIONS`` (the inspect sections)."""
    out = []
    for module, node in _calls("diff"):
        arg = node.args[0] if node.args else None
        if isinstance(arg, ast.Constant):
            out.append((module, node.lineno, arg.value))
        elif isinstance(arg, ast.Name) and arg.id == "comparison" and module == "compare.py":
            out += [(module, node.lineno, name) for _, name in _SECTIONS]
        else:
            out.append((module, node.lineno, None))
    return out


def test_every_diff_names_a_listed_comparison():
    named = _named()
    assert named, "the checker makes no comparison at all"
    assert [] == [c for c in named if c[2] not in COMPARISONS]


def test_every_listed_comparison_is_made_somewhere():
    assert set(COMPARISONS) == {c[2] for c in _named()}


@pytest.mark.parametrize("comparison", sorted(COMPARISONS))
def test_every_comparison_names_rules_that_exist(comparison: str):
    rules = COMPARISONS[comparison]
    assert rules and all(r in RULE_BY_ID for r in rules)


@pytest.mark.parametrize("comparison", sorted(COMPARISONS))
def test_every_comparison_rule_quotes_its_sentence(comparison: str):
    """The quote itself is checked verbatim against the sources in test_catalogue."""
    quotes = [RULE_BY_ID[r].citation.quote.strip() for r in COMPARISONS[comparison]]
    assert all(len(q) >= 10 for q in quotes)


@pytest.mark.parametrize("comparison", sorted(COMPARISONS))
def test_no_comparison_rests_on_an_implementation_defined_rule(comparison: str):
    """What the documents leave to the implementation is an input, never a verdict (principle 2)."""
    statuses = {RULE_BY_ID[r].status for r in COMPARISONS[comparison]}
    assert "implementation-defined" not in statuses


def test_the_usage_figures_are_never_compared_with_the_models():
    """No comparison of the implementation's usage with the model's accounting remains."""
    source = (JUDGE / "compare.py").read_text(encoding="utf-8")
    assert "USAGE_TOLERANCE" not in source and "SIZING-005" not in source
