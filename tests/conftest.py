import pytest

from optimal_mm import Game


@pytest.fixture(scope="session")
def mastermind():
    return Game.from_spec("mastermind")


@pytest.fixture(scope="session")
def bulls():
    return Game.from_spec("bulls-and-cows")
