"""The little Markdown the report's sections use, as HTML: headings, paragraphs, lists, tables,
bold, code and images. Enough for REPORT.md's own sections, nothing more; text is escaped."""

import html
import re

_INLINE = [(re.compile(r"`([^`]+)`"), r"<code>\1</code>"),
           (re.compile(r"\*\*([^*]+)\*\*"), r"<b>\1</b>"),
           (re.compile(r"!\[([^\]]*)\]\(([^)\s]+)\)"), r'<img alt="\1" src="\2">'),
           (re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)"), r'<a href="\2">\1</a>')]


def inline(text):
    out = html.escape(text, quote=False)
    for pattern, replacement in _INLINE:
        out = pattern.sub(replacement, out)
    return out


def _cells(line):
    return [cell.strip() for cell in line.strip().strip("|").split(" | ")]


def to_html(text):
    """HTML of a Markdown text made by units.table and the report's sections."""
    out, paragraph, items = [], [], []

    def flush():
        if paragraph:
            out.append("<p>" + inline(" ".join(paragraph)) + "</p>")
            paragraph.clear()
        if items:
            out.append("<ul>" + "".join(f"<li>{inline(i)}</li>" for i in items) + "</ul>")
            items.clear()
    lines = text.split("\n")
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith("|") and index + 1 < len(lines) and \
                re.match(r"^\|[\s:|-]+\|$", lines[index + 1].strip()):
            flush()
            align = ["num" if cell.endswith(":") else "" for cell in _cells(lines[index + 1])]
            head = "".join(f'<th class="{a}">{inline(c)}</th>'
                           for c, a in zip(_cells(line), align))
            body = []
            index += 2
            while index < len(lines) and lines[index].startswith("|"):
                body.append("<tr>" + "".join(f'<td class="{a}">{inline(c)}</td>' for c, a in
                                             zip(_cells(lines[index]), align + [""] * 99))
                            + "</tr>")
                index += 1
            out.append(f'<div class="scroll"><table><thead><tr>{head}</tr></thead>'
                       f'<tbody>{"".join(body)}</tbody></table></div>')
            continue
        heading = re.match(r"^(#{1,4}) (.*)$", line)
        if heading:
            flush()
            level = min(6, len(heading.group(1)) + 1)  # inside the page: below its own h2
            out.append(f"<h{level}>{inline(heading.group(2))}</h{level}>")
        elif line.startswith("- "):
            if paragraph:
                flush()
            items.append(line[2:])
        elif not line.strip():
            flush()
        elif items and line.startswith("  "):
            items[-1] += " " + line.strip()
        else:
            paragraph.append(line)
        index += 1
    flush()
    return "\n".join(out)
