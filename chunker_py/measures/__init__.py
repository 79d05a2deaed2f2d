"""Measures of any spans over a text: damage (cut code, sentences, graphemes, over size).
Imports config and below.
"""
