"""From text and settings to a result: the analysis (split, summary, warnings, trade-offs,
records) and the comparison of splitters. Imports measures and below.
"""
