"""The generic search: plain depth-first and limited discrepancy search reach the same verdict,
and the line each finds really wins; on random graphs and on real Royal Assassin deals."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.algorithms.search import depth_first
from domain.games.royal_assassin import ROYAL_ASSASSIN as RA
from domain.games.royal_assassin.solver import RoyalAssassinSearch


class Graph:
    """A directed graph as a search problem: nodes are ints, some are wins."""

    def __init__(self, edges, wins):
        self.edges, self.wins = edges, wins

    def won(self, node):
        return node in self.wins

    def hopeless(self, node):
        return False

    def successors(self, node):
        return [(f"{node}->{n}", None if n < 0 else n) for n in self.edges.get(node, [])]

    def key(self, node):
        return node


graphs = st.integers(2, 12).flatmap(
    lambda n: st.tuples(
        st.dictionaries(
            st.integers(0, n - 1), st.lists(st.integers(-1, n - 1), max_size=4), max_size=n
        ),
        st.sets(st.integers(0, n - 1), max_size=2),
    )
)


def reaches_a_win(graph, start):
    seen, todo = set(), [start]
    while todo:
        node = todo.pop()
        if node in graph.wins:
            return True
        if node in seen:
            continue
        seen.add(node)
        todo += [n for n in graph.edges.get(node, []) if n >= 0]
    return False


def walk(graph, start, line):
    node = start
    for move in line:
        head, tail = move.split("->")
        assert int(head) == node and int(tail) in graph.edges[node]
        node = int(tail)
    return node


def acyclic(graph_data):
    """The same graph with every edge pointing forward (a game whose positions never repeat)."""
    edges, wins = graph_data
    return {a: [b for b in bs if b < 0 or b > a] for a, bs in edges.items()}, wins


@settings(max_examples=400)
@given(graphs)
def test_depth_first_agrees_with_reachability_even_with_cycles(graph_data):
    graph = Graph(*graph_data)
    won, line, _, complete = depth_first(graph, 0, None)
    assert complete and won == reaches_a_win(graph, 0)
    if won:
        assert graph.won(walk(graph, 0, line))


@settings(max_examples=400)
@given(graphs)
def test_discrepancy_search_agrees_on_positions_that_never_repeat(graph_data):
    graph = Graph(*acyclic(graph_data))
    won, line, _, complete = depth_first(graph, 0, None, discrepancies=True)
    assert complete and won == reaches_a_win(graph, 0)
    if won:
        assert graph.won(walk(graph, 0, line))


def test_discrepancy_search_refuses_a_cycle():
    with pytest.raises(ValueError, match="never repeat"):
        depth_first(Graph({0: [1], 1: [0]}, set()), 0, None, discrepancies=True)


def test_a_node_budget_gives_up_honestly():
    chain = Graph({i: [i + 1] for i in range(100)}, {100})
    assert depth_first(chain, 0, 10) == (False, [], 11, False)
    assert depth_first(chain, 0, 10, discrepancies=True)[3] is False


# The sixth deal alone takes seconds to search: `make test` runs it, `make unit` the other five.
@pytest.mark.parametrize("i", [*range(5), pytest.param(5, marks=pytest.mark.slow)])
def test_on_royal_assassin_deals_both_searches_agree(i):
    problem = RoyalAssassinSearch(RA)
    start = RA.start(f"agree-{i}")
    plain = depth_first(problem, start, 300_000)
    limited = depth_first(problem, start, 300_000, discrepancies=True)
    if plain[3] and limited[3]:
        assert plain[0] == limited[0]
