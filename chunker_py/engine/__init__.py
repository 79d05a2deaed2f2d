"""The engine (bottom layer): spans, the text index, the merge and the sink, errors, limits, the
field type settings are described with, and the sizer interface. Imports nothing above it.
"""
