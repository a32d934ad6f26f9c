"""Spreadsheets: Excel workbooks (.xlsx, .xlsm) with openpyxl and CSV files with the standard library, as Markdown
tables cited by sheet and row.

openpyxl opens a workbook read-only with the values Excel last computed (``data_only``): formulas are never
evaluated and macros never run (an .xlsm's macro part is not even loaded). Each worksheet is split into tables at
blank rows; inside a run of rows, the first row is a table's header, and so is a later row of text only that comes
right before a row holding a number (a second table stacked under the first without a blank row). Every data row is
one block carrying its header and its sheet row number, so chunks are Markdown tables labelled
"sheet Schedules, rows 2-14".
"""

from __future__ import annotations

import csv
import io
import zipfile
from typing import Callable, Iterable, Sequence

import openpyxl
from lxml import etree

from grounding.extract.assemble import assemble, cell_text, table_blocks
from grounding.extract.ooxml import MACRO_NOTE, hidden_note
from grounding.location import Location
from grounding.parsing import Block, ParsedDocument, ParseError

Progress = Callable[[int, int], None]


def _is_number(value: object) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return True
    text = str(value or "").strip().strip("*").replace(",", "").replace("$", "").replace("%", "")
    try:
        float(text)
    except ValueError:
        return False
    return bool(text)


def _tables(rows: Sequence[tuple[int, list[object]]]) -> list[list[tuple[int, list[object]]]]:
    """Split numbered rows into tables (see the module docstring): at blank rows, and before a row of text only
    that is followed by a row holding a number."""
    tables: list[list[tuple[int, list[object]]]] = []
    current: list[tuple[int, list[object]]] = []
    for i, (number, values) in enumerate(rows):
        if not any(str(v).strip() for v in values if v is not None):
            if current:
                tables.append(current)
            current = []
            continue
        following = rows[i + 1][1] if i + 1 < len(rows) else []
        header_like = (len(current) >= 2 and not any(_is_number(v) for v in values if v is not None)
                       and any(_is_number(v) for v in following if v is not None)
                       and rows[i + 1][0] == number + 1)
        if header_like:
            tables.append(current)
            current = []
        current.append((number, values))
    if current:
        tables.append(current)
    return tables


def rows_to_blocks(rows: Iterable[tuple[int, list[object]]], section: tuple[str, ...], *, format: str,
                   sheet: str = "") -> list[Block]:
    """Blocks of numbered spreadsheet rows ((row number, values), 1-based numbers), one table at a time, each data
    row with its table's header and Location(format, sheet=sheet, rows=(n, n))."""
    blocks: list[Block] = []
    for table in _tables(list(rows)):
        texts = [[cell_text(v) for v in values] for _, values in table]
        locations = [Location(format, sheet=sheet, rows=(number, number)) for number, _ in table]
        blocks += table_blocks(texts, section, locations)
    return blocks


def extract_xlsx(data: bytes, filename: str, *, macros: bool = False, progress: Progress | None = None
                 ) -> ParsedDocument:
    """Blocks of a workbook's worksheets (chart sheets have no cells and are skipped; hidden and very hidden sheets
    are left out and named in the notes: grounding.extract.ooxml.hidden_note).

    Args:
        data: the file's bytes (sniffed before).
        filename: for messages and the fallback title.
        macros: the workbook is macro-enabled: its values are read, its macros never run (nor loaded), and the notes
            say so.
        progress: called as progress(sheets done, sheets total) after each worksheet.
    Returns:
        ParsedDocument titled by the Title property, else the file name; ``pages`` is the number of worksheets;
        each block's section is its sheet's name.
    Raises:
        ParseError: a damaged workbook or no values at all.
    """
    try:
        book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True, keep_vba=False,
                                      keep_links=False)
    except (KeyError, ValueError, OSError, TypeError, zipfile.BadZipFile, etree.XMLSyntaxError) as exc:
        raise ParseError(f"{filename}: the workbook is damaged and cannot be read ({exc}); open it in Excel, save "
                         "it again and add the new file") from exc
    if not book.sheetnames:  # a workbook has one sheet at least: its sheets' parts are missing (the s46 breaker's
        book.close()  # file was reported "no text found ... made only of pictures")
        raise ParseError(f"{filename}: the workbook is damaged and cannot be read (it has no sheet a reader can "
                         "open); open it in Excel, save it again and add the new file")
    try:
        sheets = book.worksheets
        blocks: list[Block] = []
        hidden: list[str] = []
        for i, sheet in enumerate(sheets):
            if sheet.sheet_state != "visible":  # "hidden" or "veryHidden": a reader of the workbook does not see it
                hidden.append(sheet.title)
            else:
                rows = ((n, list(values)) for n, values in enumerate(sheet.iter_rows(min_row=1, values_only=True), 1))
                blocks += rows_to_blocks(rows, (sheet.title,), format="xlsx", sheet=sheet.title)
            if progress:
                progress(i + 1, len(sheets))
        title = book.properties.title or ""
    finally:
        book.close()
    notes = [MACRO_NOTE] if macros else []
    if hidden:
        notes.append(hidden_note(f"hidden sheet{'s' if len(hidden) > 1 else ''} "
                                 + ", ".join(f"'{name}'" for name in hidden)))
    return assemble(filename, blocks, title=title, notes=notes, pages=len(sheets))


def extract_csv(data: bytes, filename: str) -> ParsedDocument:
    """Blocks of a CSV file (UTF-8, a BOM accepted; the delimiter is sniffed among , ; tab and |), cited by row
    number (the record's number in the file, the header being row 1).

    Raises:
        ParseError: not UTF-8, malformed CSV, or no values.
    """
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ParseError(f"{filename}: not UTF-8 text (byte {exc.start}); save the table as CSV UTF-8 and add it "
                         "again") from exc
    try:
        dialect = csv.Sniffer().sniff(text[:20_000], delimiters=",;\t|")
    except csv.Error:
        dialect = csv.excel
    try:
        rows = [(n, list(values)) for n, values in enumerate(csv.reader(io.StringIO(text), dialect), 1)]
    except csv.Error as exc:
        raise ParseError(f"{filename}: malformed CSV ({exc}); check the quotes of that row") from exc
    return assemble(filename, rows_to_blocks(rows, (), format="csv"))
