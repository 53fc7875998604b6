"""wirebench's Python tools: read Google Benchmark result files, model transfers, write reports.

Modules:
  results   load a result file, split benchmark names, statistics over repetitions
  links     link profiles (links.json) and their validation
  tcp       slow-start and wire-time arithmetic
  model     one call's time = encode + compress + transfer + decompress + decode
  fit       the relay-2009 link profile fitted from the published Azure figures
  published the field figures (published sizes and timings) the report compares against
  report    REPORT.md writer; charts draws its figures with svg (a small SVG writer)
  compare   U-test table (stats: Mann-Whitney U) plus a per-format summary
  cli       shared error handling for the entry scripts
"""
