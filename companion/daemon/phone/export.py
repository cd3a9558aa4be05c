"""The whole ledger as a file a phone downloads: JSON and CSV, built once per game and language and then
only extended by the events booked since."""

import csv
import io
import json
import threading
from typing import Any

from .common import READ_CHUNK
from .reading import Reading
from .views import PhoneViews


class LedgerExport:
    """The exports made so far, one per language, each event converted once (its words never change)."""

    def __init__(self, reading: Reading, views: PhoneViews):
        self.reading = reading
        self.views = views
        self._export_lock = threading.Lock()  # one export is built at a time; the next reuses what it made
        # language -> (game, events, each as CSV and as JSON text): an event's words never change
        self._exports: dict[str, tuple[str, list[dict[str, Any]], list[str], list[str]]] = {}
        self._export_texts: dict[str, tuple[str, int, dict[str, Any]]] = {}  # language -> (game, head, the last export)

    def export(self, language: str) -> dict[str, Any]:
        """The whole ledger as plain data, as JSON text ("json") and as CSV text ("csv"). Built once per game
        and language and then only extended by the events booked since (an event's words never change), one
        export at a time: eight phones asking at once make one export, and the writer never waits for any."""

        def look(table: Any) -> dict[str, Any]:
            head = self.reading.head(table, language)
            if table is None:
                return {"head": head, "events": [], "csv": _csv_text([]), "json": _json_text(head, [])}
            with self._export_lock:
                made = self._export_texts.get(language)
                if made is not None and made[:2] == (table.snapshot.first_hash, table.head_seq):
                    return dict(made[2])  # the phones refreshing at the same head share one export
                game, events, rows, texts = self._exports.get(language, ("", [], [], []))
                if game != table.snapshot.first_hash:
                    events, rows, texts = [], [], []
                while len(events) < table.head_seq:
                    for event in table.history.events(len(events), min(table.head_seq, len(events) + READ_CHUNK)):
                        converted = self.views.event(table, event, language)
                        events.append(converted)
                        rows.append(_csv_row(converted))
                        texts.append(json.dumps(converted, ensure_ascii=False, separators=(",", ":")))
                self._exports[language] = (table.snapshot.first_hash, events, rows, texts)
                n = table.head_seq
                out = {
                    "head": head,
                    "events": events[:n],
                    "csv": _csv_text(rows[:n]),
                    "json": _json_text(head, texts[:n]),
                }
                self._export_texts[language] = (table.snapshot.first_hash, n, out)
                return dict(out)

        return self.reading.read(look)


def _csv_row(event: dict[str, Any]) -> str:
    out = io.StringIO()
    csv.writer(out).writerow(
        [
            event["seq"],
            event["actor"],
            event["command"],
            event["reverses"] or "",
            "; ".join(f"{p['account']} {p['amount']:+d}" for p in event["postings"]),
            " / ".join(event["lines"]),
        ]
    )
    return out.getvalue()


def _json_text(head: dict[str, Any], events: list[str]) -> str:
    """{"head": ..., "events": [...]}, one event a line (each already JSON text)."""
    return '{"head": %s,\n "events": [\n%s\n]}\n' % (json.dumps(head, ensure_ascii=False), ",\n".join(events))


def _csv_text(rows: list[str]) -> str:
    out = io.StringIO()
    csv.writer(out).writerow(["seq", "actor", "command", "reverses", "postings", "words"])
    return out.getvalue() + "".join(rows)
