"""The card map: which RFID card (by its UID) is which player, plot or CHANCE/FORTUNE card.

Kept in one JSON file in the games folder, so the cards tagged once serve
every later game. A player's card is a seat (player 1 is whoever sits first in
the next game's turn order), so the same six cards work whatever the names.
Plot and deck cards belong to one box, so they carry the edition they were
tagged for. Enrolling a card for a role another card holds replaces that card
(a lost card, mid-game): the old UID is kept as replaced and refused with that
reason if it turns up again. Written atomically (temporary file, fsync, rename).
"""

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import BadInput, Message, SaidInput, cause_of
from companion.files.wholefile import write_whole
from companion.words.parse import json_problem

KINDS = ("player", "plot", "card")
UID_LENGTHS = (8, 14, 20)  # hex digits of a 4-, 7- or 10-byte UID
MAX_SEATS = 8
FILE_VERSION = 1


def role_words(role: "Role", edition, language: str) -> str:
    """A role as the screens say it: "player 2", "plot «Cinema»", never a plot's or card's id when the
    edition is at hand (edition: the Edition the role belongs to, or None)."""
    from companion.words import messages  # words only: the map itself never needs them

    ref = role.ref
    if edition is not None and role.edition == edition.id:
        if role.kind == "plot" and ref in edition.plots:
            ref = messages.cell_name(edition, ref, language)
        elif role.kind == "card" and ref in edition.cards:
            ref = messages.card_text(edition, ref, language)
    return messages.render("role_" + role.kind, {"ref": ref}, language)


def check_role(role: "Role") -> None:
    """BadInput for a role no table could use: an unknown kind, a seat outside 1..MAX_SEATS."""
    if role.kind not in KINDS:
        raise SaidInput("cardrole_kind", value=role.kind)
    if role.kind == "player" and not (role.ref.isascii() and role.ref.isdigit() and 1 <= int(role.ref) <= MAX_SEATS):
        raise SaidInput("cardrole_seat", max=MAX_SEATS, value=role.ref)
    if role.kind != "player" and not role.ref:
        raise SaidInput("cardrole_no_" + role.kind)


def check_ref(role: "Role", edition) -> None:
    """BadInput unless the plot or deck card the role names is on `edition`'s board."""
    known = edition.plots if role.kind == "plot" else edition.cards if role.kind == "card" else None
    if known is not None and role.ref not in known:
        exc = SaidInput("cardrole_unknown_" + role.kind, edition=edition.id, ref=role.ref, known=sorted(known)[:8])
        exc.edition = edition  # its name in the screen's language
        raise exc


def _damage(exc: Exception) -> Exception | Message:
    """What is wrong inside a card map: our own coded error, a key it lacks, else Python's words."""
    if isinstance(exc, SaidInput):
        return exc
    if isinstance(exc, KeyError) and exc.args:
        return Message("cardmap_no_key", name=exc.args[0])
    return Message("machine_words", text=" ".join(str(exc).split()))


def normal_uid(text: str) -> str:
    """A UID as the reader sends it (upper-case hex, 4/7/10 bytes); BadInput for anything else."""
    uid = text.strip().upper().replace(":", "")
    if len(uid) not in UID_LENGTHS or any(c not in "0123456789ABCDEF" for c in uid):
        raise SaidInput("cardrole_uid", text=text)
    return uid


@dataclass(frozen=True)
class Role:
    """What a card stands for: a seat, or a plot or deck card of one edition."""

    kind: str  # player | plot | card
    ref: str  # the seat number, the plot id or the card id
    edition: str = ""  # for plot and card: the edition's id

    def key(self) -> tuple[str, str, str]:
        return self.kind, self.ref, self.edition


class CardMap:
    """The enrolled cards; `save` writes the file, nothing else does."""

    def __init__(self, path: Path, roles: dict[str, Role] | None = None, replaced: dict[str, str] | None = None):
        self.path = Path(path)
        self.roles = dict(roles or {})
        self.replaced = dict(replaced or {})  # old UID -> the UID that took its role

    @classmethod
    def load(cls, path: Path) -> "CardMap":
        """The map in `path` (an empty one if there is no file); BadInput naming a damaged file."""
        path = Path(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return cls(path)
        except json.JSONDecodeError as exc:
            raise SaidInput("cardmap_not_json", path=str(path), problem=json_problem(exc)) from None
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            raise SaidInput("cardmap_unreadable", path=str(path), detail=str(exc), cause=cause_of(exc)) from None
        try:
            roles = {
                normal_uid(uid): Role(r["kind"], str(r["ref"]), str(r.get("edition", "")))
                for uid, r in data["cards"].items()
            }
            replaced = {normal_uid(old): normal_uid(new) for old, new in data.get("replaced", {}).items()}
            for role in roles.values():
                check_role(role)
        except (KeyError, TypeError, ValueError, AttributeError, BadInput) as exc:
            raise SaidInput("cardmap_damaged", path=str(path), problem=_damage(exc)) from None
        return cls(path, roles, replaced)

    def saved_or_undone(self, change) -> Any:
        """Apply `change()` to the map and save it; if the file cannot be written, the map in memory
        goes back to what the file holds (OSError raised), so memory and disk never disagree."""
        roles, replaced = dict(self.roles), dict(self.replaced)
        try:
            result = change()
            self.save()
        except BaseException:
            self.roles, self.replaced = roles, replaced
            raise
        return result

    def save(self) -> None:
        data = {
            "version": FILE_VERSION,
            "cards": {
                uid: {"kind": r.kind, "ref": r.ref, **({"edition": r.edition} if r.edition else {})}
                for uid, r in sorted(self.roles.items())
            },
            "replaced": dict(sorted(self.replaced.items())),
        }
        write_whole(self.path, json.dumps(data, ensure_ascii=False, indent=1))

    def role(self, uid: str) -> Role | None:
        return self.roles.get(uid)

    def enrol(self, uid: str, role: Role) -> str | None:
        """Map `uid` to `role`; returns the UID it replaces (the lost card), if another held the role."""
        uid = normal_uid(uid)
        check_role(role)
        before = next((old for old, r in self.roles.items() if r.key() == role.key() and old != uid), None)
        if before is not None:
            del self.roles[before]
            self.replaced[before] = uid
        self.roles[uid] = role
        self.replaced.pop(uid, None)
        return before

    def forget(self, uid: str) -> Role:
        uid = normal_uid(uid)
        if uid not in self.roles:
            raise SaidInput("cardrole_not_enrolled", uid=uid)
        return self.roles.pop(uid)
