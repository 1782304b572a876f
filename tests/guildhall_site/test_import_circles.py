"""No import circles: in games, accounts and guildhall_site every import runs one way.

import-linter's contracts (pyproject.toml, test_floor_plan) order the layers they name, but a
circle inside one layer, or inside a package no contract orders, passes them. This looks for
any: grimp's graph (imports inside functions and under TYPE_CHECKING count, as they do for
import-linter; a package's __init__ is a module like the others), cut into its strongly
connected components. A component of more than one module is a circle, printed with one
cycle through it and the lines of its imports.
"""

from __future__ import annotations

import itertools

import grimp

PACKAGES = ("games", "accounts", "guildhall_site")


def circles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The strongly connected components of more than one module, each sorted (Tarjan's,
    without recursion: a chain of imports may be longer than Python's stack)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, imported = work[-1]
            for other in imported:
                if other not in index:
                    index[other] = low[other] = len(index)
                    stack.append(other)
                    on_stack.add(other)
                    work.append(
                        (other, iter(sorted(graph.find_modules_directly_imported_by(other))))
                    )
                    break
                if other in on_stack:
                    low[module] = min(low[module], index[other])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[module])
                if low[module] == index[module]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == module:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return sorted(found)


def a_cycle(graph: grimp.ImportGraph, component: list[str]) -> list[str]:
    """One cycle through the component's first module: the shortest way back to it."""
    start, members = component[0], set(component)
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for module in frontier:
            for other in sorted(graph.find_modules_directly_imported_by(module) & members):
                if other == start:
                    path = [module]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [*reversed(path), start]
                if other not in came_from:
                    came_from[other] = module
                    following.append(other)
        frontier = following
    raise AssertionError(f"no cycle through {start}")


def describe(graph: grimp.ImportGraph, component: list[str]) -> str:
    cycle = a_cycle(graph, component)
    lines = [f"{len(component)} modules: {', '.join(component)}", "  " + " -> ".join(cycle)]
    for importer, imported in itertools.pairwise(cycle):
        for detail in graph.get_import_details(importer=importer, imported=imported):
            lines.append(
                f"    {importer}:{detail['line_number']}: {detail['line_contents'].strip()}"
            )
    return "\n".join(lines)


def test_no_module_imports_itself_round_a_circle():
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)

    found = circles(graph)

    report = "\n".join(describe(graph, component) for component in found)
    print(report)
    assert not found, f"{len(found)} import circle(s):\n{report}"


def test_a_circle_is_found_and_shown_with_its_lines():
    graph = grimp.ImportGraph()
    for importer, imported in [("p.a", "p.b"), ("p.b", "p.c"), ("p.c", "p.a"), ("p.d", "p.a")]:
        graph.add_import(
            importer=importer,
            imported=imported,
            line_number=3,
            line_contents=f"import {imported}",
        )
    graph.add_import(importer="p.e", imported="p.f", line_number=1, line_contents="import p.f")
    graph.add_import(importer="p.f", imported="p.e", line_number=2, line_contents="import p.e")

    found = circles(graph)

    assert found == [["p.a", "p.b", "p.c"], ["p.e", "p.f"]]
    shown = describe(graph, found[0])
    assert "p.a -> p.b -> p.c -> p.a" in shown
    assert "p.c:3: import p.a" in shown
