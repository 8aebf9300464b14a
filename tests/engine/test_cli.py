"""The `ttr` command line: maps, simulate, replay and score, with their error handling."""

from __future__ import annotations

import json

import pytest

from engine.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:  # type: ignore[no-untyped-def]
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_maps_lists_every_board_and_flags_provisional_data(capsys):
    code, out, _ = run(capsys, "maps")
    assert code == 0
    for board in ("europe", "usa", "germany", "marklin", "japan", "italy"):
        assert board in out
    assert "PROVISIONAL" in out.split("marklin")[1].splitlines()[0]
    code, out, _ = run(capsys, "maps", "--json")
    assert {row["id"] for row in json.loads(out)} >= {"europe", "usa"}


def test_simulate_json_and_record_then_replay(capsys, tmp_path):
    record = tmp_path / "game.json"
    code, out, _ = run(
        capsys,
        "simulate",
        "--map",
        "europe",
        "--variant",
        "mega",
        "--option",
        "warehouses",
        "--players",
        "3",
        "--games",
        "3",
        "--seed",
        "7",
        "--json",
        "--record",
        str(record),
    )
    assert code == 0
    result = json.loads(out)
    for key in (
        "map",
        "variant",
        "players",
        "games",
        "errors",
        "invariant_violations",
        "mean_turns",
        "games_per_second",
    ):
        assert key in result
    assert (result["map"], result["variant"], result["players"], result["games"]) == ("europe", "mega", 3, 3)
    assert result["errors"] == 0 and result["invariant_violations"] == 0
    code, out, _ = run(capsys, "replay", str(record), "--json")
    assert code == 0
    scores = json.loads(out)
    assert len(scores["players"]) == 3 and scores["winners"]
    # a tampered record is refused, naming the first bad action
    data = json.loads(record.read_text())
    data["actions"][5]["seat"] = (data["actions"][5]["seat"] + 1) % 3
    record.write_text(json.dumps(data))
    code, _, err = run(capsys, "replay", str(record))
    assert code == 2 and "action " in err and "not legal" in err


def score_file(tmp_path, data) -> str:  # type: ignore[no-untyped-def]
    path = tmp_path / "score.json"
    path.write_text(json.dumps(data) if not isinstance(data, str) else data, encoding="utf-8")
    return str(path)


def test_score_output_format(capsys, tmp_path):
    data = {
        "map": "usa",
        "players": [
            {
                "name": "Ann",
                "routes": [["Seattle", "Portland"], ["Portland", "San Francisco", "green"]],
                "tickets": [["Portland", "Nashville"], ["Seattle", "Los Angeles"]],
            },
            {"name": "Bob", "routes": [["los angeles", "las vegas"]], "tickets": []},
        ],
    }
    code, out, _ = run(capsys, "score", score_file(tmp_path, data))
    assert code == 0
    result = json.loads(out)
    ann = result["players"][0]
    # Seattle–Portland 1 (1) + Portland–San Francisco 5 (10) = 11; Portland–Nashville 17 failed,
    # Seattle–Los Angeles 9 failed; longest path 6 -> 10 points.
    assert (
        ann["route_points"] == 11 and ann["ticket_points"] == -26 and ann["bonuses"] == {"longest_path": 10}
    )
    assert ann["total"] == -5 and ann["longest_path"] == 6
    assert set(ann) == {
        "name",
        "route_points",
        "tickets",
        "ticket_points",
        "completed_tickets",
        "longest_path",
        "bonuses",
        "total",
        "rank",
    }
    assert ann["tickets"][0] == {"a": "Portland", "b": "Nashville", "points": 17, "completed": False}
    assert result["winners"] == ["Bob"]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"map": "europe", "players": [{"name": "A", "routes": [["Paris", "Atlantis"]]}, {"name": "B"}]},
            "no place called",
        ),
        (
            {"map": "europe", "players": [{"name": "A", "routes": [["Paris", "Roma"]]}, {"name": "B"}]},
            "no route Paris–Roma",
        ),
        (
            {
                "map": "europe",
                "players": [
                    {"name": "A", "routes": [["Paris", "Dieppe"]]},
                    {"name": "B", "routes": [["Dieppe", "Paris"]]},
                ],
            },
            "claimed twice",
        ),
        (
            {
                "map": "europe",
                "players": [
                    {
                        "name": "A",
                        "routes": [["Paris", "Bruxelles", "red"], ["Paris", "Bruxelles", "yellow"]],
                    },
                    {"name": "B"},
                ],
            },
            "two routes",
        ),
        (
            {"map": "europe", "players": [{"name": "A", "routes": [["Paris", "Bruxelles"]]}, {"name": "B"}]},
            "say which",
        ),
        (
            {"map": "europe", "players": [{"name": "A", "tickets": [["Paris", "Lisboa"]]}, {"name": "B"}]},
            "not a ticket",
        ),
        ({"map": "mars", "players": [{"name": "A"}]}, "unknown board"),
        # impossible positions: both routes of a double route with 2 or 3 players, more trains than a player
        # has, a player count the board is not played by
        (
            {
                "map": "europe",
                "players": [
                    {"name": "A", "routes": [["Paris", "Frankfurt", "white"]]},
                    {"name": "B", "routes": [["Paris", "Frankfurt", "orange"]]},
                    {"name": "C"},
                ],
            },
            "only one can be",
        ),
        (
            {
                "map": "usa",
                "players": [
                    {
                        "name": "A",  # eight routes of 6: 48 trains, 45 in the box
                        "routes": [
                            ["Calgary", "Winnipeg"],
                            ["Duluth", "Helena"],
                            ["Duluth", "Toronto"],
                            ["El Paso", "Houston"],
                            ["El Paso", "Los Angeles"],
                            ["Helena", "Seattle"],
                            ["Miami", "New Orleans"],
                            ["Portland", "Salt Lake City"],
                        ],
                    },
                    {"name": "B"},
                ],
            },
            "need 48 trains",
        ),
        ({"map": "japan", "players": [{"name": str(i)} for i in range(6)]}, "played by 2 to 5 players"),
        ({"map": "japan", "players": [{"name": "A"}]}, "played by 2 to 5 players"),
        ("{not json", "not valid JSON"),
    ],
)
def test_score_bad_input_exits_2_with_a_clear_message(capsys, tmp_path, data, message):
    code, _, err = run(capsys, "score", score_file(tmp_path, data))
    assert code == 2
    assert message in err


def test_score_accepts_accents_and_case(capsys, tmp_path):
    data = {
        "map": "europe",
        "players": [{"name": "A", "routes": [["zurich", "MUNCHEN"]], "tickets": []}, {"name": "B"}],
    }
    code, out, _ = run(capsys, "score", score_file(tmp_path, data))
    assert code == 0 and json.loads(out)["players"][0]["route_points"] == 2


def test_simulate_with_ai_seats_reports_each_seat(capsys):
    code, out, _ = run(
        capsys, "simulate", "--map", "usa", "--seats", "normal,random,random", "--games", "3", "--json"
    )
    assert code == 0
    result = json.loads(out)
    assert result["seats"] == ["normal", "random", "random"] and result["games"] == 3
    assert sum(result["wins"]) >= 3  # a shared first place counts for each winner
    assert len(result["mean_scores"]) == len(result["mean_decision_ms"]) == 3
    assert all(ms > 0 for ms in result["mean_decision_ms"])
    assert set(result["levels"]) == {"normal", "random"}


def test_tournament_over_several_boards_per_level_and_board(capsys):
    code, out, _ = run(
        capsys, "simulate", "--map", "japan,italy", "--seats", "normal,easy", "--games", "2", "--json"
    )
    assert code == 0
    boards = json.loads(out)["tournaments"]
    assert [b["map"] for b in boards] == ["japan", "italy"]
    for b in boards:
        assert set(b["levels"]) == {"normal", "easy"}
        for level in b["levels"].values():
            assert 0 <= level["win_rate"] <= 1 and level["p95_decision_ms"] >= level["p50_decision_ms"] > 0
    code, out, _ = run(capsys, "simulate", "--map", "japan,italy", "--seats", "normal,easy", "--games", "1")
    assert code == 0
    for board in ("japan", "italy"):
        section = out.split(f"{board}: 1 games")[1].split(": 1 games")[0]
        assert "level normal" in section and "level easy" in section and "win rate" in section


@pytest.mark.parametrize("bad", [{"route": "3"}, {"route": None}, {"color": 2.0}, {"route": True}])
def test_replay_of_a_wrongly_typed_action_exits_2_naming_it(capsys, tmp_path, bad):
    """A record whose action holds a value of the wrong type is refused like any illegal action (both builds),
    naming it, with no traceback."""
    record = tmp_path / "game.json"
    code, _, _ = run(
        capsys, "simulate", "--map", "usa", "--players", "2", "--games", "1", "--record", str(record)
    )
    assert code == 0
    data = json.loads(record.read_text())
    i = next(i for i, e in enumerate(data["actions"]) if e["action"]["type"] == "claim_route")
    data["actions"][i]["action"].update(bad)
    record.write_text(json.dumps(data))
    code, _, err = run(capsys, "replay", str(record))
    assert code == 2
    assert f"action {i + 1} " in err and "claim_route" in err and "Traceback" not in err
