from bench._pacer import Pacer


def test_sends_fall_due_at_the_rate_to_the_longest_idle_bot() -> None:
    pacer = Pacer(["a", "b", "c"], rate=10.0, start=0.0)
    assert pacer.due(0.05) == []
    assert pacer.due(0.1) == ["a"]
    pacer.done("a")
    assert pacer.due(0.3) == ["b", "c"]
    assert (pacer.sent, pacer.missed) == (3, 0)


def test_a_busy_bot_is_never_sent_a_second_move_and_the_send_counts_as_missed() -> None:
    pacer = Pacer(["a", "b"], rate=10.0, start=0.0)
    assert pacer.due(0.2) == ["a", "b"]
    assert pacer.due(0.5) == []
    assert (pacer.sent, pacer.missed) == (2, 3)
    pacer.done("b")
    assert pacer.due(0.6) == ["b"]
    assert pacer.due(0.7) == []
    assert (pacer.sent, pacer.missed) == (3, 4)


def test_missed_sends_are_not_made_up_later() -> None:
    pacer = Pacer(["a"], rate=100.0, start=0.0)
    assert pacer.due(0.05) == ["a"]
    pacer.done("a")
    assert pacer.due(0.055) == []
    assert pacer.due(0.06) == ["a"]
    assert (pacer.sent, pacer.missed) == (2, 4)
