from types import SimpleNamespace

from engine.levels import level, offered


def test_a_game_offers_its_levels_weakest_first_and_names_a_level_it_alone_has():
    game = SimpleNamespace(bots={"search": None, "greedy": None, "random": None})
    assert [(lv["id"], lv["name"]) for lv in offered(game)] == [
        ("random", "Beginner"),
        ("search", "Expert"),
        ("greedy", "Greedy"),
    ]
    assert level("heuristic").name == "Casual" and level("heuristic").about
