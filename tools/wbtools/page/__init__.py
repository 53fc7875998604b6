"""The report page: one self-contained HTML file per result (and per comparison of two)."""
