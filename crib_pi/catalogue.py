"""The ``.po`` catalogues read and compiled to gettext's ``.mo``, without tools outside Python.

Translators edit ``crib_pi/locale/<lang>/LC_MESSAGES/crib_pi.po`` with the tools they know
(Poedit, msgfmt, Babel); the build (``setup.py``), ``scripts/_venv.sh`` and
``python -m crib_pi.catalogue`` compile them here, so a Pi needs no gettext package. Fuzzy
entries are left out, as ``msgfmt`` leaves them out.
"""

from __future__ import annotations

import ast
import struct
import sys
from dataclasses import dataclass, field
from pathlib import Path

LOCALE = Path(__file__).resolve().parent / "locale"
DOMAIN = "crib_pi"


CONTEXT = "\x04"
"""Between a message's context and its id, in ``.mo`` keys and here."""


class CatalogueError(ValueError):
    """A ``.po`` file that cannot be read; names the file and the line."""


@dataclass
class Entry:
    """One message: its id (and plural id), its translations, and whether it is fuzzy."""

    msgid: str
    plural: str | None = None
    strings: dict[int, str] = field(default_factory=dict)
    fuzzy: bool = False
    line: int = 0

    @property
    def translated(self) -> bool:
        forms = 2 if self.plural is not None else 1
        return not self.fuzzy and all(self.strings.get(i) for i in range(forms))


def _unquote(text: str, path: Path, line: int) -> str:
    text = text.strip()
    if not (len(text) >= 2 and text[0] == text[-1] == '"'):
        raise CatalogueError(f"{path}:{line}: expected a quoted string, not {text[:40]!r}")
    try:
        value = ast.literal_eval(text)
    except (SyntaxError, ValueError):
        raise CatalogueError(f"{path}:{line}: bad string {text[:40]!r}") from None
    assert isinstance(value, str)
    return value


def read_po(path: Path) -> list[Entry]:
    """Every entry of a ``.po`` file, the header (msgid "") first as written."""
    entries: list[Entry] = []
    current: Entry | None = None
    target: tuple[str, int] | None = None  # which field continuation lines extend
    fuzzy = False
    context: str | None = None  # a msgctxt waiting for its msgid
    lines = path.read_text(encoding="utf-8").splitlines()
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#,"):
            fuzzy = fuzzy or "fuzzy" in line
            continue
        if line.startswith("#"):
            continue
        keyword, _, rest = line.partition(" ")
        if line.startswith('"') and target is not None and target[0] == "context":
            context = (context or "") + _unquote(line, path, number)
        elif keyword == "msgctxt":
            context, target = _unquote(rest, path, number), ("context", 0)
        elif keyword == "msgid":
            msgid = _unquote(rest, path, number)
            if context is not None:  # .mo files key a message with context as ctx EOT msgid
                msgid = f"{context}{CONTEXT}{msgid}"
            current = Entry(msgid, fuzzy=fuzzy, line=number)
            entries.append(current)
            fuzzy, target, context = False, ("msgid", 0), None
        elif current is None:
            raise CatalogueError(f"{path}:{number}: {keyword} before any msgid")
        elif keyword == "msgid_plural":
            current.plural, target = _unquote(rest, path, number), ("plural", 0)
        elif keyword == "msgstr":
            current.strings[0], target = _unquote(rest, path, number), ("msgstr", 0)
        elif keyword.startswith("msgstr[") and keyword.endswith("]"):
            index = int(keyword[7:-1])
            current.strings[index], target = _unquote(rest, path, number), ("msgstr", index)
        elif line.startswith('"') and target is not None:
            more = _unquote(line, path, number)
            if target[0] == "msgid":
                current.msgid += more
            elif target[0] == "plural":
                current.plural = (current.plural or "") + more
            else:
                current.strings[target[1]] += more
        else:
            raise CatalogueError(f"{path}:{number}: cannot read {line[:40]!r}")
    return entries


def compile_entries(entries: list[Entry]) -> bytes:
    """GNU ``.mo`` bytes (what ``gettext.GNUTranslations`` reads) for the translated entries."""
    pairs: dict[bytes, bytes] = {}
    for e in entries:
        if e.msgid == "":
            pairs[b""] = e.strings.get(0, "").encode()
        elif e.translated:
            msgid = e.msgid if e.plural is None else f"{e.msgid}\0{e.plural}"
            forms = [e.strings[i] for i in sorted(e.strings)]
            pairs[msgid.encode()] = "\0".join(forms).encode()
    keys = sorted(pairs)
    header = 7 * 4
    ids_at = header
    strs_at = ids_at + 8 * len(keys)
    data_at = strs_at + 8 * len(keys)
    ids, strs, blob = [], [], b""
    for key in keys:
        ids.append((len(key), data_at + len(blob)))
        blob += key + b"\0"
    for key in keys:
        value = pairs[key]
        strs.append((len(value), data_at + len(blob)))
        blob += value + b"\0"
    out = struct.pack("<7I", 0x950412DE, 0, len(keys), ids_at, strs_at, 0, data_at)
    out += b"".join(struct.pack("<2I", *p) for p in ids)
    out += b"".join(struct.pack("<2I", *p) for p in strs)
    return out + blob


@dataclass(frozen=True)
class Message:
    """A message the code marks for translation, and where (``file:line``)."""

    msgid: str
    plural: str | None
    where: str


def extract(package: Path = LOCALE.parent) -> dict[str, Message]:
    """Every message marked in the package's code: the string given to ``_``, ``N_`` or
    ``ngettext`` (keyed by msgid; a plural's key is its singular)."""
    found: dict[str, Message] = {}
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            texts = [
                a.value
                for a in node.args
                if isinstance(a, ast.Constant) and isinstance(a.value, str)
            ]
            where = f"{path.relative_to(package.parent)}:{node.lineno}"
            if node.func.id in ("_", "N_") and len(node.args) == 1 and len(texts) == 1:
                found.setdefault(texts[0], Message(texts[0], None, where))
            elif node.func.id in ("pgettext", "NC_") and len(texts) == 2:
                key = f"{texts[0]}{CONTEXT}{texts[1]}"
                found.setdefault(key, Message(key, None, where))
            elif node.func.id == "ngettext" and len(texts) >= 2:
                found.setdefault(texts[0], Message(texts[0], texts[1], where))
    return found


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def missing_entries(language: str) -> str:
    """The marked messages the ``.po`` of ``language`` lacks, as ``.po`` entries to fill in."""
    have = {e.msgid for e in read_po(po_path(language))}
    out = []
    for m in extract().values():
        if m.msgid in have:
            continue
        context, _, msgid = m.msgid.rpartition(CONTEXT)
        entry = f"#: {m.where}\n" + (f"msgctxt {_quote(context)}\n" if context else "")
        entry += f"msgid {_quote(msgid)}\n"
        if m.plural is None:
            entry += 'msgstr ""\n'
        else:
            entry += f'msgid_plural {_quote(m.plural)}\nmsgstr[0] ""\nmsgstr[1] ""\n'
        out.append(entry)
    return "\n".join(out)


def po_path(language: str, root: Path = LOCALE) -> Path:
    return root / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def compile_all(root: Path = LOCALE, out: Path | None = None) -> list[Path]:
    """Compile every ``<lang>/LC_MESSAGES/crib_pi.po`` under ``root`` next to it (or under
    ``out``, the same tree); returns the ``.mo`` files written."""
    written = []
    for po in sorted(root.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        mo = (out / po.relative_to(root) if out else po).with_suffix(".mo")
        mo.parent.mkdir(parents=True, exist_ok=True)
        mo.write_bytes(compile_entries(read_po(po)))
        written.append(mo)
    return written


def main() -> int:
    """``python -m crib_pi.catalogue``: compile the package's catalogues in place;
    ``--missing LANG`` prints the entries that catalogue lacks, to append and translate."""
    try:
        if sys.argv[1:2] == ["--missing"] and len(sys.argv) == 3:
            print(missing_entries(sys.argv[2]), end="")
            return 0
        for mo in compile_all():
            print(f"compiled {mo.relative_to(LOCALE.parent.parent)}")
    except (CatalogueError, OSError) as exc:
        print(f"crib-pi catalogue: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
