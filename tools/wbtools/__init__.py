"""wirebench's Python tools: read Google Benchmark result files, model transfers, write reports.

Packages, each by what it serves (tools/README.md lists every file in one line):
  results/    what a run wrote, read back: the result file, rounds, noise, labels, the machine
  transfer/   the transfer model: link profiles, TCP's wire time, one call's time, racing
  compare/    two result files side by side; two builds timed in turn (ab)
  wire/       the measured wire: its cases, runs, scenarios and the transfer model beside it
  page/       the self-contained HTML pages of a report and of a comparison
  report/     report.html, REPORT.md, their tables, sections and charts
  jsoncorpus/ the project's JSON conformance corpus
Modules every package uses:
  cli         user errors as one line and exit code 2; reading files
  units       human-readable numbers and Markdown tables
  stats       Mann-Whitney U-test and intervals
"""
