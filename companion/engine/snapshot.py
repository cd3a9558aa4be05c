"""A game state as plain JSON data and back, exactly (checkpoints; never pickle).

Every value a State holds is an int, str, bool, None, tuple, frozenset, dict,
or one of the engine's frozen records (Pending, Debt, Offer). Each is written with a
one-letter tag so that reading it back gives equal values of the same types,
dicts in the same order (the engine iterates some of them).
"""

import json
from dataclasses import fields
from typing import Any

from companion.engine.state import Debt, Offer, Pending, State
from companion.errors import check

_RECORDS: dict[str, type] = {"P": Pending, "D": Debt, "O": Offer}
_TAGS = {cls: tag for tag, cls in _RECORDS.items()}


def _encode(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, tuple):
        return {"t": [_encode(v) for v in value]}
    if isinstance(value, list):
        return {"l": [_encode(v) for v in value]}
    if isinstance(value, frozenset):
        items = [_encode(v) for v in value]
        return {"f": sorted(items, key=lambda v: json.dumps(v, sort_keys=True))}
    if isinstance(value, dict):
        return {"m": [[_encode(k), _encode(v)] for k, v in value.items()]}
    tag = _TAGS.get(type(value))
    check(tag is not None, f"a state holds a {type(value).__name__}, which a checkpoint cannot store")
    return {tag: {f.name: _encode(getattr(value, f.name)) for f in fields(value)}}


def _decode(data: Any) -> Any:
    if not isinstance(data, dict):
        return data
    ((tag, body),) = data.items()
    if tag == "t":
        return tuple(_decode(v) for v in body)
    if tag == "l":
        return [_decode(v) for v in body]
    if tag == "f":
        return frozenset(_decode(v) for v in body)
    if tag == "m":
        return {_decode(k): _decode(v) for k, v in body}
    return _RECORDS[tag](**{k: _decode(v) for k, v in body.items()})


def state_to_text(state: State) -> str:
    """The state as compact JSON text (the same state always gives the same text)."""
    data = {name: _encode(getattr(state, name)) for name in State.DICTS + State.SCALARS}
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def state_from_text(text: str) -> State:
    """Rebuild a State from state_to_text's output; ValueError/KeyError/TypeError if it is not one."""
    data = json.loads(text)
    state = State()
    for name in State.DICTS + State.SCALARS:
        setattr(state, name, _decode(data[name]))
    return state
