"""``sixtysix replay`` (docs/design.md §5): single records, bulk use, errors."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sixtysix.cli import main

EXAMPLES = Path(__file__).parent / "examples"
EXAMPLE_NAMES = sorted(p.stem for p in EXAMPLES.glob("*.json") if not p.stem.endswith(".expected"))


def example(name: str) -> Path:
    return EXAMPLES / f"{name}.json"


def expected(name: str) -> str:
    return (EXAMPLES / f"{name}.expected.json").read_text().strip()


def raw(name: str) -> dict[str, Any]:
    obj: dict[str, Any] = json.loads(example(name).read_text())
    return obj


def write(path: Path, obj: Any) -> str:
    path.write_text(json.dumps(obj))
    return str(path)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["replay", *args])
    out, err = capsys.readouterr()
    return status, out, err


def feed_stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


@pytest.fixture
def illegal(tmp_path: Path) -> str:
    """A match record whose hand 2 has an illegal action at index 7."""
    obj = raw("match-0000")
    obj["hands"][2]["actions"][7] = "KH"
    return write(tmp_path / "illegal.json", obj)


# -- One record -------------------------------------------------------------------


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_json_output_of_each_example(capsys: pytest.CaptureFixture[str], name: str) -> None:
    status, out, err = run(capsys, "--json", str(example(name)))
    assert (status, err) == (0, "")
    assert out == expected(name) + "\n"


def test_human_output_of_a_hand(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, str(example("0003")))
    assert (status, err) == (0, "")
    assert "Player 1 wins 3 game points" in out
    assert "did not make 66" in out  # closed_failed, in words
    assert "points 57-0" in out and "tricks 6-0" in out
    assert "D 20" in out and "Closed by player 0" in out
    assert not out.lstrip().startswith("{")


def test_human_output_of_a_match(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, str(example("match-0000")))
    lines = out.splitlines()
    assert status == 0
    assert len(lines) == 7
    # People count hands from 1 and see the players' names from the record (issue 19);
    # the JSON keeps its seats and positions from 0.
    players = raw("match-0000")["players"]
    assert lines[0].startswith(f"Hand 1 ({players[1]} deals): {players[1]} wins 2 game points (declared 66)")
    assert [line.split(" (")[0] for line in lines[:-1]] == [f"Hand {n}" for n in range(1, 7)]
    assert lines[-1] == f"{players[0]} wins the match 8-4."


def test_human_output_of_a_match_without_names(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    obj = raw("match-0000")
    del obj["players"]
    status, out, _ = run(capsys, write(tmp_path / "anonymous.json", obj))
    lines = out.splitlines()
    assert status == 0
    assert lines[0].startswith("Hand 1 (player 1 deals): Player 1 wins 2 game points (declared 66)")
    assert lines[-1] == "Player 0 wins the match 8-4."


def test_human_output_of_an_unfinished_hand(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    obj = raw("0000")
    obj["actions"] = obj["actions"][:5]
    status, out, _ = run(capsys, write(tmp_path / "part.json", obj))
    assert status == 0
    assert out.startswith("Unfinished: player 1 to act")
    assert "points 4-3" in out


def test_unfinished_hand_as_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    obj = raw("0000")
    obj["actions"] = obj["actions"][:5]
    status, out, _ = run(capsys, "--json", write(tmp_path / "part.json", obj))
    assert status == 0
    assert out == ('{"winner": null, "reason": "unfinished", "to_act": 1, "game_points": 0, '
                   '"bonus": 0, "points": [4, 3], "tricks": [1, 1], "marriages": [[], []], '
                   '"closed_by": null}\n')


def test_unfinished_match_as_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    obj = raw("match-0000")
    obj["hands"] = obj["hands"][:2]
    status, out, _ = run(capsys, "--json", write(tmp_path / "part.json", obj))
    result = json.loads(out)
    assert status == 0
    assert result["winner"] is None and result["score"] == [1, 2] and len(result["hands"]) == 2
    obj["hands"] = []
    status, out, _ = run(capsys, "--json", write(tmp_path / "empty.json", obj))
    assert out == '{"winner": null, "score": [0, 0], "hands": []}\n'
    status, out, _ = run(capsys, str(tmp_path / "empty.json"))
    assert out == "Match unfinished: score 0-0 after 0 hands.\n"


# -- One invalid record: status 2, a message on stderr, nothing on stdout -------------------


def test_illegal_action(capsys: pytest.CaptureFixture[str], illegal: str) -> None:
    for args in ([illegal], ["--json", illegal]):
        status, out, err = run(capsys, *args)
        assert (status, out) == (2, "")
        assert err == (f'sixtysix: error: {illegal}: hand 3, action 7 ("KH"): illegal action KH: '
                       "player 1 does not hold KH; legal: KC TC QD TH QS KS\n")


@pytest.mark.parametrize(("obj", "message"), [
    ({**raw("0000"), "format": "sixtysix/0"}, 'unsupported format "sixtysix/0"'),
    ({**raw("0000"), "rules": {"preset": "classic", "colour": "red"}}, "bad rules: unknown option 'colour'"),
    ({**raw("0000"), "deck": raw("0000")["deck"].replace("QS", "QD")}, "invalid deck: QD appears twice"),
    ({**raw("0000"), "actions": [*raw("0000")["actions"], "D"]},
     'hand 1, action 30 ("D"): illegal action D: the hand is over'),
    ({**raw("0000"), "actions": ["KS", "9C", "Q"]}, 'hand 1, action 2 ("Q"): not an action'),
    ({**raw("0000"), "dealer": None}, "dealer must be seat 0 or 1, not null"),
    ({**raw("match-0001"), "hands": [*raw("match-0001")["hands"], raw("match-0001")["hands"][1]]},
     "hand 4: the match was over after hand 3"),
])
def test_invalid_record(capsys: pytest.CaptureFixture[str], tmp_path: Path, obj: Any, message: str) -> None:
    path = write(tmp_path / "bad.json", obj)
    status, out, err = run(capsys, path)
    assert (status, out) == (2, "")
    assert err.startswith(f"sixtysix: error: {path}: {message}")
    assert err.count("\n") == 1 and "Traceback" not in err


def test_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = str(tmp_path / "nothing.json")
    status, out, err = run(capsys, path)
    assert (status, out) == (2, "")
    assert err == f"sixtysix: error: cannot read {path}: No such file or directory\n"


def test_directory_instead_of_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out, err = run(capsys, str(tmp_path))
    assert (status, out) == (2, "")
    assert err.startswith(f"sixtysix: error: cannot read {tmp_path}: ")


@pytest.mark.parametrize(("content", "message"), [
    (b"hello", "not valid JSON: Expecting value: line 1 column 1"),
    (b"", "not valid JSON"),
    (b"\xff\xfe\xfa", "not "),
    (b"[1, 2]", "a record must be a JSON object"),
])
def test_not_a_record(capsys: pytest.CaptureFixture[str], tmp_path: Path, content: bytes,
                      message: str) -> None:
    path = tmp_path / "junk.json"
    path.write_bytes(content)
    status, out, err = run(capsys, str(path))
    assert (status, out) == (2, "")
    assert err.startswith(f"sixtysix: error: {path}: {message}")


# -- Bulk use -----------------------------------------------------------------------------


def test_several_files_print_one_json_line_each(capsys: pytest.CaptureFixture[str]) -> None:
    files = [str(example(name)) for name in EXAMPLE_NAMES]
    status, out, err = run(capsys, *files)  # JSON even without --json
    assert (status, err) == (0, "")
    assert out.splitlines() == [expected(name) for name in EXAMPLE_NAMES]


def test_several_files_with_bad_ones(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                     illegal: str) -> None:
    missing = str(tmp_path / "missing.json")
    status, out, err = run(capsys, "--json", str(example("0001")), illegal, missing, str(example("0002")))
    lines = out.splitlines()
    assert status == 2 and err == ""
    assert len(lines) == 4
    assert lines[0] == expected("0001") and lines[3] == expected("0002")
    assert json.loads(lines[1]) == {
        "error": f'{illegal}: hand 3, action 7 ("KH"): illegal action KH: player 1 does not hold KH; '
                 "legal: KC TC QD TH QS KS"}
    assert json.loads(lines[2]) == {"error": f"cannot read {missing}: No such file or directory"}


def test_json_lines_on_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    bad_token = {**raw("0000"), "actions": ["KS", "9C", "E"]}
    lines = [
        json.dumps(raw("0000")),
        "",  # blank lines are skipped
        "not json",
        json.dumps(raw("match-0001")),
        json.dumps(bad_token),
        '{"format": "sixtysix/1"}',
        json.dumps(raw("0005")) + "\r",
    ]
    feed_stdin(monkeypatch, ("\n".join(lines) + "\n").encode())
    status, out, err = run(capsys, "-")
    got = out.splitlines()
    assert status == 2 and err == ""
    assert len(got) == 6
    assert got[0] == expected("0000")
    # Errors name the line of standard input (blank lines counted).
    assert json.loads(got[1])["error"].startswith("standard input, line 3: not valid JSON")
    assert got[2] == expected("match-0001")
    assert json.loads(got[3])["error"].startswith(
        'standard input, line 5: hand 1, action 2 ("E"): not an action')
    assert json.loads(got[4]) == {
        "error": "standard input, line 6: missing 'rules' (a preset name such as 'classic', or an object)"}
    assert got[5] == expected("0005")


def test_json_lines_all_valid(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    names = EXAMPLE_NAMES * 3
    feed_stdin(monkeypatch, "".join(json.dumps(raw(n)) + "\n" for n in names).encode())
    status, out, _ = run(capsys, "--json", "-")
    assert status == 0
    assert out.splitlines() == [expected(n) for n in names]


def test_empty_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    feed_stdin(monkeypatch, b"")
    assert run(capsys, "-") == (0, "", "")


def test_stdin_among_files(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    feed_stdin(monkeypatch, (json.dumps(raw("0003")) + "\n").encode())
    status, out, _ = run(capsys, str(example("0001")), "-", str(example("0004")))
    assert status == 0
    assert out.splitlines() == [expected("0001"), expected("0003"), expected("0004")]


def test_no_file_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["replay"])
    assert info.value.code == 2
    assert "FILE" in capsys.readouterr().err


# -- A real process ---------------------------------------------------------------------


def sixtysix(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "sixtysix", "replay", *args], input=stdin,
                          capture_output=True, timeout=120, check=False)


def test_subprocess_single_file() -> None:
    done = sixtysix("--json", str(example("match-0000")))
    assert done.returncode == 0 and done.stderr == b""
    assert done.stdout.decode() == expected("match-0000") + "\n"


def test_subprocess_json_lines_and_errors(tmp_path: Path) -> None:
    good = json.dumps(raw("0002"))
    bad = json.dumps({**raw("0002"), "actions": ["AH", "TC", "X"]})
    done = sixtysix("-", stdin=f"{good}\n{bad}\n{good}\n".encode())
    lines = done.stdout.decode().splitlines()
    assert done.returncode == 2
    assert lines[0] == lines[2] == expected("0002")
    assert json.loads(lines[1])["error"].startswith(
        'standard input, line 2: hand 1, action 2 ("X"): illegal action X: ')

    path = tmp_path / "bad.json"
    path.write_text(bad)
    done = sixtysix(str(path))
    assert (done.returncode, done.stdout) == (2, b"")
    assert b'hand 1, action 2 ("X")' in done.stderr and b"Traceback" not in done.stderr


# -- Inputs that used to crash replay (each exits 2 with a message, no traceback) ------


def test_a_deeply_nested_file_is_refused_not_a_recursion_error(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 2000 + "]" * 2000)
    done = sixtysix(str(path))
    assert (done.returncode, done.stdout) == (2, b"")
    assert done.stderr.decode() == f"sixtysix: error: {path}: not a record: JSON nested more than 32 deep\n"
    # Under the interpreter's recursion limit, but deeper than any record: refused too.
    nested: Any = 1
    for _ in range(34):
        nested = [nested]
    write(path, {**raw("0002"), "note": nested})
    done = sixtysix(str(path))
    assert done.returncode == 2 and b"nested more than 32 deep" in done.stderr


def test_a_huge_file_is_refused_without_reading_it_whole(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    with open(big, "wb") as fp:
        fp.truncate(64 << 20)  # 64 MB of zeros, sparse
    for name in (str(big), "/dev/zero"):
        if not Path(name).exists():
            continue
        done = sixtysix(name)
        assert (done.returncode, done.stdout) == (2, b"")
        assert done.stderr.decode() == f"sixtysix: error: {name}: not a record: larger than 8,388,608 bytes\n"


def test_a_huge_line_on_standard_input_is_refused_and_the_next_one_replayed() -> None:
    good = json.dumps(raw("0002")).encode()
    done = sixtysix("-", stdin=b"[" + b" " * (9 << 20) + b"]\n" + good + b"\n")
    lines = done.stdout.decode().splitlines()
    assert done.returncode == 2 and len(lines) == 2
    assert json.loads(lines[0]) == {
        "error": "standard input, line 1: not a record: larger than 8,388,608 bytes"}
    assert lines[1] == expected("0002")


def test_a_match_to_zero_points_is_an_invalid_record_and_bulk_goes_on(tmp_path: Path) -> None:
    """R12's target is at least one game point; before, target 0 raised MatchOverError
    ("the match is over", no file, no hand) and stopped a bulk run before any line."""
    obj = raw("match-0000")
    obj["rules"] = {"preset": "classic", "target": 0}
    zero = write(tmp_path / "zero.json", obj)
    done = sixtysix(zero)
    assert (done.returncode, done.stdout) == (2, b"")
    assert done.stderr.decode() == (f"sixtysix: error: {zero}: bad rules: option target must be at least "
                                    "1 game point, not 0\n")
    done = sixtysix(zero, str(example("match-0000")))
    lines = done.stdout.decode().splitlines()
    assert done.returncode == 2 and len(lines) == 2 and b"Traceback" not in done.stderr
    assert json.loads(lines[0])["error"].startswith(f"{zero}: bad rules")
    assert lines[1] == expected("match-0000")
