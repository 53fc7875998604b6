"""One case of the corpus: its expected outcome, group, name and one-line reason."""

import collections

LABELS = ("y", "n", "i")  # must accept, must reject, either
GROUPS = ("array", "number", "object", "string", "structure")


class Case(collections.namedtuple("Case", "label group slug data reason")):
    """label y, n or i; group one of GROUPS; slug [a-z0-9_]; data the file's bytes."""

    @property
    def name(self):
        """The file name: y_number_minus_zero.json."""
        return f"{self.label}_{self.group}_{self.slug}.json"


def cases_of(group, rows):
    """Cases of one group from (label, slug, data, reason) rows; str data is UTF-8 encoded."""
    return [Case(label, group, slug, data.encode() if isinstance(data, str) else data, reason)
            for label, slug, data, reason in rows]
