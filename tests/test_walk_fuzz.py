"""The walk's endpoint under a fuzz (issue 23, point 1 and 5): any mix of ops and fields from the banker, a
spectator or a visitor, with forged tokens, never answers 500 and never more than one line; nothing is booked
into the game while the walk runs; only the banker's steps move the walk; whatever the walk saves is a whole
board the edition loader takes."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_phone_views import Phone, start_box

from companion.editions import load_edition

OPS = ["start", "start", "cell", "cell", "name", "back", "leave", "save", "", "START", "x" * 20]
GOOD = ["elite", "monopoly", "card:chance:ШАНС", "exchange::БИРЖА", "leisure3", "current", "current"]
FIELD = st.one_of(
    st.none(),
    st.text(max_size=12),
    st.integers(-3, 50).map(str),
    st.sampled_from(GOOD + ["classic", "../elite", "chance", "fortune"]),
)


@pytest.fixture(scope="module")
def box(tmp_path_factory):
    daemon = start_box(tmp_path_factory.mktemp("walkfuzz"))
    yield daemon
    daemon.stop()


@pytest.fixture(scope="module")
def phones(box):
    return {"banker": Phone(box).banker(), "spectator": Phone(box).join(), "visitor": Phone(box)}


SEEN: dict = {}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    who=st.sampled_from(["banker", "spectator", "visitor"]),
    op=st.sampled_from(OPS),
    base=st.sampled_from(["elite", "elite", "monopoly", "deluxe", "", "../x", "our-elite"]) | FIELD,
    key=FIELD,
    plot=FIELD,
    version=FIELD,
    forged=st.booleans(),
    as_json=st.booleans(),
)
def test_fuzz_the_walk(box, phones, who, op, base, key, plot, version, forged, as_json):
    phone = phones[who]
    head = len(box.owner.table.game.events) if box.owner.table is not None else 0
    before = box.walking.walk.version if box.walking.walk is not None else None
    if version == "current":  # the version the banker's page last showed
        version = str(before if before is not None else 0)
    body = {
        k: v for k, v in {"op": op, "base": base, "key": key, "plot": plot, "version": version}.items() if v is not None
    }
    headers = {"X-CSRF-Token": "forged" if forged else phone.csrf}
    if as_json:
        answer = phone.client.post("/phone/walk", json=body, headers=headers)
    else:
        answer = phone.client.post("/phone/walk", data=body, headers=headers)
    assert answer.status_code != 500, answer.data
    assert answer.is_json and ("error" in answer.json) != (answer.status_code == 200), answer.data
    if answer.status_code != 200:
        assert "\n" not in answer.json["error"]
        if who != "banker" or forged:
            assert (box.walking.walk.version if box.walking.walk is not None else None) == before
    if box.owner.table is not None:
        assert len(box.owner.table.game.events) == head  # a walk books nothing into the game
    path = box.boards.path("elite")
    if path.exists():
        load_edition(path)
    assert box.app.extensions["phone"].failures == 0
    SEEN[(who, forged, answer.status_code)] = SEEN.get((who, forged, answer.status_code), 0) + 1


def test_the_fuzz_reached_the_walk_as_the_banker():
    assert SEEN.get(("banker", False, 200), 0) > 0, SEEN
    assert SEEN.get(("spectator", False, 403), 0) > 0, SEEN
