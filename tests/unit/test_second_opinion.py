"""z3's second opinions in a helper process (symgame.model.second_opinion)."""
import multiprocessing as mp
import os
import signal

import pytest
from hypothesis import given, seed, settings
from hypothesis import strategies as st

import symgame.model.decide as decide
from symgame.model import second_opinion
from symgame.model.decide import Decision, Z3Context, satisfiable
from symgame.model.parameters import parse_domain
from symgame.model.region import Domain

SQUARE = Domain((parse_domain("p1", "[0, 1]"), parse_domain("p2", "[0, 1]")))


def _questions(ctx):
    p1, p2 = ctx.vars["p1"], ctx.vars["p2"]
    return [[4 * p1 * p2 > 1, p1 + p2 < 1],          # empty (AM-GM)
            [p1 * p1 == 2 * p2 * p2, p1 > 0],        # only irrational witnesses: checked by z3
            [p1 * p1 * p1 + p2 * p2 * p2 == 1, p1 == p2],
            [p1 * p1 + p2 * p2 < 0]]


def test_answers_are_the_cads_in_both_modes_and_every_check_is_made():
    plain = Z3Context(SQUARE)
    expected = [satisfiable(plain, q) for q in _questions(plain)]
    ctx = Z3Context(SQUARE)
    with second_opinion.background() as helper:
        got = [satisfiable(ctx, q) for q in _questions(ctx)]
        assert helper.pending() >= 0
    assert [a.satisfiable for a in got] == [a.satisfiable for a in expected]
    assert [a.point for a in got] == [a.point for a in expected]
    # every answer without a rational witness got its second opinion (agreed), none lost
    assert ctx.stats["z3_agreed"] == plain.stats["z3_agreed"] == 4 - ctx.stats["witness_checked"]
    assert ctx.stats["z3_gave_up"] == ctx.stats["z3_crashed"] == 0


def test_a_disagreement_is_raised_when_the_block_ends(monkeypatch):
    ctx = Z3Context(SQUARE)
    p1 = ctx.vars["p1"]
    monkeypatch.setattr(decide, "_cad_satisfiable", lambda *args: decide.Witness(Decision.FALSE))
    with pytest.raises(decide.DecisionConflict, match="the plane CAD says false and z3 says true"):
        with second_opinion.background():
            answer = satisfiable(ctx, [p1 * p1 == 2 * ctx.vars["p2"]])   # p1 = p2 = 0 satisfies it
            assert answer.satisfiable is Decision.FALSE   # the CAD's (wrong) answer, returned at once


def test_nested_blocks_share_one_helper_and_only_the_outer_one_waits():
    ctx = Z3Context(SQUARE)
    with second_opinion.background() as outer:
        with second_opinion.background() as inner:
            assert inner is outer and second_opinion.active() is outer
            satisfiable(ctx, _questions(ctx)[0])
        assert second_opinion.active() is outer
    assert second_opinion.active() is None
    assert ctx.stats["z3_agreed"] == 1


def test_a_helper_that_dies_costs_one_check_and_a_new_helper_takes_the_rest():
    ctx = Z3Context(SQUARE)
    with second_opinion.background() as helper:
        satisfiable(ctx, _questions(ctx)[0])
        helper.settle()
        assert helper._process is not None
        os.kill(helper._process.pid, signal.SIGKILL)   # as z3's segmentation faults do
        helper._process.wait()
        for question in _questions(ctx):
            satisfiable(ctx, question)
    lost = ctx.stats["z3_crashed"]
    assert lost == 1 and helper.restarts == 2
    assert ctx.stats["z3_agreed"] + ctx.stats["witness_checked"] + lost == 5


def _in_child(queue):
    ctx = Z3Context(SQUARE)
    queue.put((second_opinion.active() is None, satisfiable(ctx, _questions(ctx)[0]).satisfiable.value,
               ctx.stats["z3_agreed"]))


def test_a_forked_child_never_uses_its_parents_helper():
    context = mp.get_context("fork")
    queue = context.Queue()
    with second_opinion.background():
        child = context.Process(target=_in_child, args=(queue,))
        child.start()
        result = queue.get(timeout=60)
        child.join()
    assert result == (True, "false", 1)   # decided and checked in the child itself, synchronously


@seed(40)
@settings(max_examples=15, deadline=None)
@given(st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3), st.integers(-3, 3), st.integers(-3, 3),
                          st.sampled_from([">", ">=", "=="])), min_size=1, max_size=3))
def test_random_questions_get_the_same_answers_and_agreeing_second_opinions(rows):
    def formulas(ctx):
        p1, p2 = ctx.vars["p1"], ctx.vars["p2"]
        out = []
        for a, b, c, d, rel in rows:
            t = a * p1 * p1 + b * p1 * p2 + c * p2 + d
            out.append({">": t > 0, ">=": t >= 0, "==": t == 0}[rel])
        return out
    plain = Z3Context(SQUARE)
    expected = satisfiable(plain, formulas(plain))
    ctx = Z3Context(SQUARE)
    with second_opinion.background():
        got = satisfiable(ctx, formulas(ctx))
    assert (got.satisfiable, got.point) == (expected.satisfiable, expected.point)
    assert ctx.stats["z3_agreed"] == plain.stats["z3_agreed"]
