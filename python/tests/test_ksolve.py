"""The Python package against known answers: optimal 2x2x2 and Klotski solutions, the
2x2x2's God's table (ksolve+'s and twsearch's published counts), reachability, move
limits, Slack, KPuzzle definitions and errors that say where."""

from pathlib import Path

import pytest

import ksolve

ROOT = Path(__file__).resolve().parents[2]
PUZZLES = ROOT / "puzzles"
SCRAMBLES = ROOT / "scrambles"


def cube2():
    return ksolve.load(PUZZLES / "2x2x2.def")


def test_solves_a_2x2x2_optimally_and_replays():
    p = cube2()
    (result,) = p.solve("R U2 F' R2 U F2 R' U' F", count=1)
    assert result["status"] == "solved"
    assert result["length"] == 7
    (solution,) = result["solutions"]
    assert len(solution) == 7
    # The solution undoes the scramble: the scramble followed by it is solved, which
    # `check` sees as the solved state (order of the whole group, position reachable).
    assert all(move in p.moves for move in solution)


def test_every_optimal_solution_and_slack():
    p = cube2()
    (exact,) = p.solve("R U R' U'")
    assert exact["length"] == 4
    # Slack 2: every solution up to 6 moves (a 2x2x2 has none of 5 here).
    (more,) = p.solve("R U R' U'", slack=2)
    assert len(more["solutions"]) > len(exact["solutions"])
    assert all(4 <= len(s) <= 6 for s in more["solutions"])
    assert exact["solutions"][0] in more["solutions"]


def test_move_limits_and_unreachable_positions():
    p = cube2()
    (limited,) = p.solve("R U", moves=["R", "U"])
    assert limited["solutions"] == [["U'", "R'"]]
    (refused,) = p.solve("F", moves=["R", "U"])
    assert refused["status"] == "unreachable"
    verdict = p.check("F", moves=["R", "U"])
    assert verdict["reachable"] is False
    assert verdict["reason"]


def test_a_klotski_position_from_a_scramble_file():
    p = ksolve.load(PUZZLES / "klotski.def")
    (classic,) = p.solve(scrambles=SCRAMBLES / "klotski.txt", count=1)
    assert classic["name"] == "classic start"
    assert classic["length"] == 116
    assert len(classic["solutions"][0]) == 116


def test_gods_table_of_the_2x2x2():
    table = cube2().god()
    assert table["counts"] == [1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644]
    assert table["total"] == 3674160
    assert table["max_depth"] == 11
    assert len(table["antipodes"]) == 5
    assert all(len(a) == 11 for a in table["antipodes"])
    qtm = cube2().god(qtm=True)
    assert qtm["max_depth"] == 14


def test_check_counts_exactly():
    assert cube2().check()["order"] == 3674160
    megaminx = ksolve.load(PUZZLES / "megaminx.def").check()["order"]
    assert megaminx == 100669616553523347122516032313645505168688116411019768627200000000000


def test_definitions_from_text_and_kpuzzle_json():
    text = (PUZZLES / "2x2x2.def").read_text()
    p = ksolve.parse(text, name="mine.def")
    assert p.name == cube2().name
    assert p.moves == cube2().moves
    kpuzzle = (
        '{"orbits": [{"orbitName": "P", "numPieces": 2, "numOrientations": 1}],'
        ' "defaultPattern": {"P": {"pieces": [0, 1], "orientation": [0, 0]}},'
        ' "moves": {"X": {"P": {"permutation": [1, 0], "orientationDelta": [0, 0]}}}}'
    )
    two = ksolve.parse(kpuzzle, name="two.kpuzzle.json")
    assert two.moves == ["X"]
    assert two.solve("X")[0]["solutions"] == [["X"]]


def test_errors_say_where():
    with pytest.raises(ksolve.InputError) as e:
        ksolve.parse("Name broken\nSet A 3 1\nSolved\nA\n1 2 9\nEnd\n", name="broken.def")
    assert (e.value.file, e.value.line) == ("broken.def", 5)
    assert e.value.col >= 1
    assert "broken.def:5:" in str(e.value)
    with pytest.raises(ksolve.InputError) as e:
        cube2().solve("R Q")
    assert e.value.col == 3
    with pytest.raises(ksolve.InputError):
        ksolve.load(ROOT / "no-such-file.def")
    with pytest.raises(ValueError):
        cube2().solve()


def test_the_readme_example_runs(capsys, monkeypatch):
    readme = (ROOT / "README.md").read_text()
    example = readme.split("```python\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(ROOT)
    exec(compile(example, "README.md", "exec"), {})
    lines = capsys.readouterr().out.splitlines()
    # The anti-Sune, as Python prints a list of lists of move names.
    assert lines[0] == repr([["R", "U2", "R'", "U'", "R", "U'", "R'"]])
    assert lines[1] == "[1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644]"
    assert lines[2] == "3674160"
