"""Settings: flags over environment variables over defaults, checked values,
and a --help that lists every setting with its variable and default."""

from __future__ import annotations

import subprocess
import sys

import pytest
from throneroom_server.runtime.config import SETTINGS, Config, load_config


def test_flags_win_over_the_environment_which_wins_over_defaults() -> None:
    env = {"THRONEROOM_MAX_STREAMS": "7", "THRONEROOM_ACCESS_LOG": "off", "REDIS_URL": "redis://x"}
    config = load_config(["--max-streams", "9"], env)
    assert config.max_streams == 9
    assert config.access_log is False
    assert config.redis_url == "redis://x"
    assert load_config([], {}) == Config()
    assert load_config(["--no-access-log"], {}).access_log is False
    assert load_config([], {"THRONEROOM_IDLE_GAME_TTL_SECONDS": "0"}).idle_game_ttl_seconds == 0


@pytest.mark.parametrize(
    ("argv", "env"),
    [
        (["--max-streams", "0"], {}),
        (["--heartbeat-seconds", "-1"], {}),
        ([], {"THRONEROOM_MAX_STREAMS": "many"}),
        ([], {"THRONEROOM_LOG_FORMAT": "xml"}),
        ([], {"THRONEROOM_FIXTURE_GAMES": "perhaps"}),
        (["--log-level", "loud"], {}),
        (["--max-calls", "20000"], {}),  # not above the 20,000 streams
        ([], {"THRONEROOM_MAX_STREAMS": "40000"}),  # above the 30,000 calls
        (["--max-connections", "0"], {}),
        (["--idle-connection-seconds", "0"], {}),
    ],
)
def test_bad_values_stop_with_usage_status(argv: list[str], env: dict[str, str]) -> None:
    with pytest.raises(SystemExit) as caught:
        load_config(argv, env)
    assert caught.value.code == 2


def test_calls_may_be_raised_with_the_streams() -> None:
    config = load_config(["--max-streams", "40000", "--max-calls", "45000"], {})
    assert (config.max_streams, config.max_calls) == (40_000, 45_000)


def test_help_lists_every_setting_with_its_variable_and_default() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "throneroom_server.main", "--help"],
        capture_output=True,
        text=True,
        check=True,
    )
    text = " ".join(result.stdout.split())
    assert "REST/JSON" in text
    for setting in SETTINGS:
        assert "--" + setting.field.replace("_", "-") in text
        assert "$" + setting.env in text
    assert "default: 127.0.0.1:50051" in text
    assert "default: 100)" in text  # streams per client


def test_open_access_is_seen_on_every_non_loopback_address() -> None:
    from throneroom_server.runtime.server import exposed_without_keys

    assert exposed_without_keys(Config(listen="127.0.0.1:50051")) == []
    assert exposed_without_keys(Config(listen="[::1]:50051", http_listen="localhost:8080")) == []
    assert exposed_without_keys(Config(listen="0.0.0.0:1", http_listen="127.0.0.1:2")) == [
        "0.0.0.0:1"
    ]
    assert exposed_without_keys(Config(listen="127.0.0.1:1", http_listen=":8080")) == [":8080"]
    assert exposed_without_keys(Config(listen="[::]:1", api_keys_file="keys.json")) == []
