from engine.bots import decide
from engine.playout import play_out
from engine.registry import GAMES


def test_a_playout_asks_each_bot_through_ask_once_a_step_with_the_budget():
    game = GAMES["summer-camp"]
    asked = []

    def ask(game_, bot, state, seat, legal, rng, budget):
        asked.append((seat, bot, budget))
        return decide(game_, bot, state, seat, legal, rng, budget)

    plain = play_out(game, 2, 4, ["heuristic", "random"])
    wrapped = play_out(game, 2, 4, ["heuristic", "random"], budget=9, ask=ask)
    assert wrapped.state == plain.state and len(asked) == wrapped.steps
    assert {(seat, bot) for seat, bot, _ in asked} == {
        (0, game.bots["heuristic"]),
        (1, game.bots["random"]),
    }
    assert {budget for *_, budget in asked} == {9}
