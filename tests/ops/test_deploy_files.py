"""The deployment files cannot be built here (no Docker engine, no image registry): they parse, and they name only
what exists: the paths they copy, the commands they run (the ones CI runs), the settings they set (bot/config.py),
the metrics the alert rules and the dashboard read (bot/ops/metrics.py)."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
import yaml

from bot.config import Settings
from bot.ops.endpoints import Readiness, routes
from bot.ops.metrics import Metrics
from engine.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = {Settings.env_name(name) for name in Settings.__dataclass_fields__}
#: Environment variables of the runtime itself, not the bot's settings.
RUNTIME_ENV = {"PYTHONUNBUFFERED"}


def dockerfile_instructions(text: str) -> list[tuple[str, str]]:
    """(instruction, arguments) of a Dockerfile: comments dropped, continuation lines joined."""
    joined = re.sub(
        r"\\\n", " ", "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    )
    out = []
    for line in joined.splitlines():
        if line.strip():
            word, _, rest = line.strip().partition(" ")
            out.append((word.upper(), rest.strip()))
    return out


def ci_commands() -> str:
    return (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def ttr_subcommands() -> set[str]:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")  # noqa: SLF001
    return set(sub.choices)  # type: ignore[union-attr]


def metric_names() -> set[str]:
    """Every series name the bot exposes (with the suffixes Prometheus gives counters and histograms)."""
    metrics = Metrics()
    s = metrics.sampled
    s.timer_rows_due = 0
    s.render_queue = s.render_workers_up = s.render_restarts = s.map_pages = lambda: 0
    names = set()
    for family in metrics.registry.collect():
        suffixes = {"counter": ["_total"], "histogram": ["_bucket", "_count", "_sum"]}.get(family.type, [""])
        names.update(family.name + suffix for suffix in suffixes)
    return names


def test_the_dockerfile_copies_what_exists_and_runs_what_ci_runs() -> None:
    instructions = dockerfile_instructions((ROOT / "Dockerfile").read_text(encoding="utf-8"))
    stages = [args.split()[-1] for word, args in instructions if word == "FROM"]
    assert stages == ["build", "check", "runtime"]
    copied = 0
    for word, args in instructions:
        if word == "COPY" and "--from=" not in args:
            *sources, _target = shlex.split(args)
            for source in sources:
                assert (ROOT / source).exists(), source
                copied += source != "."
        if word == "ENV":
            names = set(re.findall(r"(\w+)=", args))
            assert names - RUNTIME_ENV <= SETTINGS, names - RUNTIME_ENV - SETTINGS
    assert copied >= 5
    ci = ci_commands()
    check = " ".join(args for word, args in instructions if word == "RUN" and "pytest" in args)
    for command in (
        "pip install",
        "-e '.[test]'",
        "ruff check .",
        "ruff format --check .",
        "mypy",
        "python -m pytest",
    ):
        assert command in check and command in ci, command
    cmd = json.loads(next(args for word, args in instructions if word == "CMD"))
    assert cmd[0] == "ttr" and cmd[1] in ttr_subcommands()
    health = next(args for word, args in instructions if word == "HEALTHCHECK")
    assert "/healthz" in health and {r.path for r in routes(Metrics(), Readiness())} >= {
        "/healthz",
        "/readyz",
    }
    assert "USER ttr" in [f"{w} {a}" for w, a in instructions]
    ignored = (ROOT / ".dockerignore").read_text(encoding="utf-8").split()
    assert ".env" in ignored and ".git" in ignored


def test_compose_runs_two_bot_processes_on_postgresql_with_real_settings() -> None:
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    services = compose["services"]
    assert set(services) == {"db", "bot-a", "bot-b"}
    shards = []
    for name in ("bot-a", "bot-b"):
        bot = services[name]
        assert (ROOT / bot["build"] / "Dockerfile").is_file() and bot["depends_on"].keys() <= services.keys()
        environment = {k: str(v) for k, v in bot["environment"].items()}
        assert set(environment) <= SETTINGS, set(environment) - SETTINGS
        settings = Settings.from_env(environment, dotenv_path=None)  # each value is one the bot accepts
        assert settings.database_url.startswith("postgresql://") and settings.shard_count == 2
        shards += list(settings.shard_ids or ())
    assert sorted(shards) == [0, 1]  # every shard run once
    assert services["bot-a"]["env_file"] == ".env" and (ROOT / ".env.example").is_file()
    assert set(compose["volumes"]) == {"pgdata"}


def test_the_systemd_unit_runs_a_real_command_with_real_settings() -> None:
    lines = [
        line for line in (ROOT / "deploy" / "ttr.service").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]  # fmt: skip
    sections = [line for line in lines if line.startswith("[")]
    assert sections == ["[Unit]", "[Service]", "[Install]"]
    entries = [line.split("=", 1) for line in lines if not line.startswith("[")]
    assert all(len(e) == 2 and re.fullmatch(r"[A-Z][A-Za-z]+", e[0]) for e in entries), entries
    names = {value.split("=", 1)[0] for key, value in entries if key == "Environment"}
    assert names and names <= SETTINGS
    start = shlex.split(next(value for key, value in entries if key == "ExecStart"))
    assert start[0].endswith("/ttr") and start[1] in ttr_subcommands()


def test_the_alert_rules_and_the_dashboard_read_only_metrics_the_bot_exposes() -> None:
    known = metric_names()
    rules = yaml.safe_load((ROOT / "deploy" / "prometheus" / "alerts.yml").read_text(encoding="utf-8"))
    exprs = [rule["expr"] for group in rules["groups"] for rule in group["rules"]]
    config = yaml.safe_load((ROOT / "deploy" / "prometheus" / "prometheus.yml").read_text(encoding="utf-8"))
    for rule_file in config["rule_files"]:
        assert (ROOT / "deploy" / "prometheus" / rule_file).is_file()
    dashboard = json.loads((ROOT / "deploy" / "grafana" / "ttr-dashboard.json").read_text(encoding="utf-8"))
    exprs += [target["expr"] for panel in dashboard["panels"] for target in panel["targets"]]
    used = {name for expr in exprs for name in re.findall(r"\bttr_\w+", expr)}
    assert used and used <= known, used - known
    assert any("ttr_timer_oldest_overdue_seconds" in e for e in exprs)  # the timer queue's lateness
    assert any("ttr_storage_errors_total" in e for e in exprs)  # the error rates


@pytest.mark.parametrize("name", ["METRICS_PORT", "LOG_FORMAT"])
def test_the_readme_and_env_example_name_the_new_settings(name: str) -> None:
    assert f"`{name}`" in (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"{name}=" in (ROOT / ".env.example").read_text(encoding="utf-8")
