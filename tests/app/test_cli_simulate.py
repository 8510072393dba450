"""`campground simulate`: bot-only games with table options."""

from app.cli import main as campground


def test_simulate_with_options(capsys):
    options = '{"friendship": true, "nature": true, "tower": true}'
    assert campground(["simulate", "pinetop", "--games", "2", "--options", options]) == 0
    out = capsys.readouterr().out
    assert f"Camp Pinetop: 2 games, 2 players, bots random random, options {options}" in out
    assert "games/s" in out and "steps/s" in out


def test_simulate_refuses_bad_options(capsys):
    assert campground(["simulate", "pinetop", "--games", "1", "--options", '{"fog": 1}']) == 2
    assert (
        "--options: Invalid options: fog: Extra inputs are not permitted" in capsys.readouterr().err
    )
    assert campground(["simulate", "pinetop", "--games", "1", "--options", "{"]) == 2
    assert "--options:" in capsys.readouterr().err
